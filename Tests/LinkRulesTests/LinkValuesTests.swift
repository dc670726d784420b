import LinkRules
import Testing

/// A link's values kept as a list find, replace and remove by name as a dictionary does.
@Suite("A link's values by name")
struct LinkValuesTests {
    @Test func valuesAreFoundReplacedAndRemovedAsInADictionary() {
        var values = LinkValues(minimumCapacity: 2)
        var dictionary: [String: String] = [:]
        let steps: [(String, String?)] = [
            ("threadid", "1"), ("pagenumber", "2"), ("threadid", "3"), ("userid", nil), ("pagenumber", nil), ("caf\u{E9}", "4"), ("cafe\u{301}", "5"),
        ]
        for (name, value) in steps {
            values[name] = value
            dictionary[name] = value
            #expect(values == LinkValues(dictionary), "after \(name)")
            #expect(values.count == dictionary.count)
            for key in ["threadid", "pagenumber", "userid", "caf\u{E9}", "cafe\u{301}", ""] { #expect(values[key] == dictionary[key], "\(key)") }
        }
        #expect(LinkValues(dictionary) == values)
    }

    @Test func equalValuesAreEqualInAnyOrder() {
        var first = LinkValues()
        first["a"] = "1"
        first["b"] = "2"
        var second = LinkValues()
        second["b"] = "2"
        second["a"] = "1"
        #expect(first == second)
        second["a"] = "x"
        #expect(first != second)
        second["a"] = nil
        #expect(first != second)
        #expect(LinkValues() == LinkValues([:]))
        // Written out, as tests and callers with fixed values do; a repeated name keeps its last.
        #expect(["a": "1", "b": "2"] as LinkValues == first)
        let repeated: LinkValues = ["a": "0", "b": "2", "a": "1"]
        #expect(repeated == first && repeated.count == 2)
    }
}
