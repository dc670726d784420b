import OrderedJSON
import Testing

/// `isEquivalent(to:)` is what `cdn-check` calls "the same JSON": a CDN that re-serialises a file
/// (other spacing, other key order) still serves the same file; a changed value is not the same.
@Suite("JSON equivalence")
struct JSONEquivalenceTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONParser(duplicateKeys: .keepAll).parse(Array(text.utf8))
    }

    @Test func layoutAndKeyOrderDoNotCount() throws {
        let first = try parse(#"{"a": 1, "b": [true, null, "x"], "c": {"d": 2.50}}"#)
        let second = try parse("{\n  \"c\": {\"d\": 2.5},\n  \"b\": [true, null, \"x\"],\n  \"a\": 1.0\n}")
        #expect(first.isEquivalent(to: second))
        #expect(second.isEquivalent(to: first))
        #expect(first != second, "== keeps order and literals; equivalence is the looser test")
    }

    @Test(arguments: [
        (#"{"a": 1}"#, #"{"a": 2}"#),
        (#"{"a": 1}"#, #"{"a": 1, "b": 1}"#),
        (#"{"a": [1, 2]}"#, #"{"a": [2, 1]}"#),
        (#"{"a": "1"}"#, #"{"a": 1}"#),
        (#"{"a": null}"#, #"{}"#),
        (#"{"a": "x"}"#, #"{"a": "X"}"#),
        (#"[1]"#, #"[1, 1]"#),
    ])
    func aChangedValueIsADifference(left: String, right: String) throws {
        #expect(!(try parse(left)).isEquivalent(to: try parse(right)))
    }

    @Test func aRepeatedKeyCountsAsItsLastOccurrence() throws {
        #expect(try parse(#"{"a": 1, "a": 2}"#).isEquivalent(to: try parse(#"{"a": 2}"#)))
        #expect(!(try parse(#"{"a": 1, "a": 2}"#)).isEquivalent(to: try parse(#"{"a": 1}"#)))
    }

    @Test func valuesAreFoundByPath() throws {
        let document = try parse(#"{"applinks": {"details": [{"components": [{"/": "/a"}, {"/": "/b"}]}]}}"#)
        let path = JSONPath.root.appending("applinks").appending("details").appending(0).appending("components").appending(1)
        #expect(document.value(at: path) == .object([JSONMember("/", "/b")]))
        #expect(document.value(at: .root) == document)
        #expect(document.value(at: path.appending("missing")) == nil)
        #expect(document.value(at: JSONPath.root.appending("applinks").appending("details").appending(5)) == nil)
    }

    @Test func fractionalNumbersAreWrittenShortAndWholeOnesAsIntegers() {
        #expect(JSONNumber(0.25).literal == "0.25")
        #expect(JSONNumber(6.0).literal == "6")
        #expect(JSONNumber(-3.0).literal == "-3")
        #expect(JSONValue.number(JSONNumber(1.5)).jsonText(.compact) == "1.5")
    }
}
