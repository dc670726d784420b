import Testing

@testable import LinkhostKit

/// `ServedRequest` shares its facts between copies and copies them on the first change: a copy
/// changed later (the observer's, a page's) must never show through in another.
@Suite("Served request facts")
struct ServedRequestTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        var original = ServedRequest(endpoint: .page, kind: .notFound)
        original.event = "first"
        var copy = original
        copy.kind = .fallback
        copy.event = "second"
        copy.pathCaptures["code"] = "TEST123"
        copy.clientClass = .ios
        #expect(original.kind == .notFound && original.event == "first" && original.pathCaptures.isEmpty && original.clientClass == nil)
        #expect(copy.kind == .fallback && copy.event == "second" && copy.pathCaptures == ["code": "TEST123"] && copy.clientClass == .ios)
        #expect(copy.endpoint == .page)
        // The copy's own later changes stay its own too.
        let snapshot = copy
        copy.logged = false
        #expect(snapshot.logged && !copy.logged)
    }
}
