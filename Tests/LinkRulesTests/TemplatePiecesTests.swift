import LinkRules
import PercentCoding
import Testing

/// The shortcuts taken for every new link give what the plain versions give: a template split once
/// fills as `TextTemplate.fill` does, and `LinkRouter.queryItems` splits as `QueryString` does.
@Suite("Templates split once and queries split in place")
struct TemplatePiecesTests {
    /// Texts and queries from an alphabet rich in braces, separators, escapes and non-ASCII.
    static func texts(seed: UInt64, count: Int) -> [String] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("{}{}ab_1 =&&?%2+é漢😀\u{301}")
        return (0..<count).map { _ in String((0..<next(14)).map { _ in alphabet[next(alphabet.count)] }) }
    }

    @Test func aSplitTemplateFillsAsTheTextTemplateDoes() {
        let values = ["a": "x&y", "b": "", "ab": "é/ü", "a b": "1", "{a": "?"]
        for text in Self.texts(seed: 7, count: 5000) + ["Thread {threadid}", "{", "}", "{}", "{a}{b}", "x{a{b}y", "{ab}}"] {
            let pieces = TemplatePieces(text)
            #expect(pieces.filled(LinkValues(values)) == TextTemplate.fill(text, with: values), "\(text)")
            let encoded = values.mapValues { PercentCoding.encode($0) }
            #expect(pieces.filled(LinkValues(values), percentEncoded: true) == TextTemplate.fill(text, with: encoded), "\(text)")
        }
    }

    @Test func queryItemsSplitAsTheQueryStringDoes() {
        for query in Self.texts(seed: 11, count: 5000) + ["", "&", "a", "a=", "=b", "a==b", "a=1&&b=2&", "&\u{301}a=1"] {
            let expected = QueryString(query, decoding: .asWritten).map { ($0.name, $0.value ?? "") }
            let items = LinkRouter.queryItems(query)
            #expect(items.map(\.name) == expected.map(\.0), "\(query)")
            #expect(items.map(\.value) == expected.map(\.1), "\(query)")
        }
        #expect(LinkRouter.queryItems(nil).isEmpty)
    }
}
