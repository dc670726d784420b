import AASAKit
import Testing

/// Every kind of pattern, and every way a URL part can be given (absent, empty, written), with the
/// exact words the explanation uses and the decision they must agree with: a text that says
/// "matches" belongs to a match, one that says "does not match" or "needs" to a miss.
@Suite("Explanations agree with the matcher")
struct ExplanationAuditTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let component: String
        let url: String
        let decision: AASADecision
        let words: String
        var testDescription: String { "\(component) \(url)" }

        init(_ component: String, _ url: String, _ decision: AASADecision, _ words: String) {
            self.component = component
            self.url = url
            self.decision = decision
            self.words = words
        }
    }

    static let cases: [Case] = [
        // Path: literal, *, ?, ?*, a variable, a broken variable.
        Case(#"{"/": "/a"}"#, "/a", .match, #"path "/a" matches "/a""#),
        Case(#"{"/": "/a"}"#, "/b", .none, #"path "/b" does not match "/a""#),
        Case(#"{"/": "/a/*"}"#, "/a/x/y", .match, #"path "/a/x/y" matches "/a/*""#),
        Case(#"{"/": "/id/????"}"#, "/id/481", .none, #"path "/id/481" does not match "/id/????""#),
        Case(#"{"/": "/id/????"}"#, "/id/4812", .match, #"path "/id/4812" matches "/id/????""#),
        Case(#"{"/": "/u/?*"}"#, "/u/", .none, #"path "/u/" does not match "/u/?*""#),
        Case(#"{"/": "/$(lang)/x"}"#, "/en/x", .match, #"path "/en/x" matches "/$(lang)/x""#),
        Case(#"{"/": "/$(lang)/x"}"#, "/zz/x", .none, #"path "/zz/x" does not match "/$(lang)/x""#),
        Case(#"{"/": "/$(nope)"}"#, "/x", .none, "(it can never match: the variable $(nope) is not defined)"),
        // Query string "*": any query or none, whether absent, empty ("/x?") or written.
        Case(#"{"?": "*"}"#, "/x", .match, #"the URL has no query, which reads as "" and the pattern "*" accepts (any query or none)"#),
        Case(#"{"?": "*"}"#, "/x?", .match, #"the query is empty (nothing after "?"), which the pattern "*" accepts (any query or none)"#),
        Case(#"{"?": "*"}"#, "/x?a=1", .match, #"query "a=1" matches "*" (any query or none)"#),
        // Query string "?*": a query must be written.
        Case(#"{"?": "?*"}"#, "/x", .none, #"the URL has no query; pattern "?*" needs at least one character"#),
        Case(#"{"?": "?*"}"#, "/x?", .none, #"the query is empty (nothing after "?"); pattern "?*" needs at least one character"#),
        Case(#"{"?": "?*"}"#, "/x?a", .match, #"query "a" matches "?*""#),
        // Query string "": no query.
        Case(#"{"?": ""}"#, "/x", .match, #"the URL has no query, which reads as "" and the pattern "" accepts"#),
        Case(#"{"?": ""}"#, "/x?", .match, #"the query is empty (nothing after "?"), which the pattern "" accepts"#),
        Case(#"{"?": ""}"#, "/x?a", .none, #"query "a" does not match """#),
        // Query string literal: the whole query, exactly.
        Case(#"{"?": "def"}"#, "/x?def", .match, #"query "def" matches "def""#),
        Case(#"{"?": "a=1"}"#, "/x?a=1&b=2", .none, #"query "a=1&b=2" does not match "a=1""#),
        Case(#"{"?": "def"}"#, "/x", .none, #"the URL has no query; pattern "def" expects exactly that text"#),
        // Query items.
        Case(#"{"?": {"a": "*"}}"#, "/x", .match, #"query item "a" is absent, which reads as "" and the pattern "*" accepts (any value or none)"#),
        Case(#"{"?": {"a": "*"}}"#, "/x?a=1&a=2", .match, #"query item "a" matches "*" in all 2 occurrences (any value or none)"#),
        Case(#"{"?": {"a": ""}}"#, "/x?b=1", .match, #"query item "a" is absent, which reads as "" and the pattern "" accepts"#),
        Case(#"{"?": {"a": "?*"}}"#, "/x?a=7", .match, #"query item "a" matches "?*""#),
        Case(#"{"?": {"a": "?*"}}"#, "/x?b=7", .none, #"query item "a" is absent; pattern "?*" needs at least one character"#),
        Case(#"{"?": {"a": "?*"}}"#, "/x?a=", .none, #"query item "a" is empty; pattern "?*" needs at least one character"#),
        Case(#"{"?": {"a": "?*"}}"#, "/x?a", .none, #"query item "a" is empty; pattern "?*" needs at least one character"#),
        Case(#"{"?": {"a": "7"}}"#, "/x?a=8", .none, #"query item "a" is "8", which does not match "7""#),
        Case(
            #"{"?": {"a": "7"}}"#, "/x?a=7&a=8", .none,
            #"query item "a" appears 2 times and occurrence 2 is "8", which does not match "7" (every occurrence must match)"#),
        Case(
            #"{"?": {"a": "7", "b": true}}"#, "/x?a=8", .match, #"the "?" dictionary is ignored (the predicate for "b" is not a string), so any query matches"#),
        Case(#"{"?": {}}"#, "/x?a=8", .match, #"an empty "?" dictionary accepts any query"#),
        // Fragment, the same three ways.
        Case(##"{"#": "*"}"##, "/x", .match, #"the URL has no fragment, which reads as "" and the pattern "*" accepts (any fragment or none)"#),
        Case(##"{"#": "*"}"##, "/x#", .match, ##"the fragment is empty (nothing after "#"), which the pattern "*" accepts (any fragment or none)"##),
        Case(##"{"#": "?*"}"##, "/x#", .none, ##"the fragment is empty (nothing after "#"); pattern "?*" needs at least one character"##),
        Case(##"{"#": "top"}"##, "/x#top", .match, #"fragment "top" matches "top""#),
        Case(##"{"#": "top"}"##, "/x#bottom", .none, #"fragment "bottom" does not match "top""#),
        // Flags that change the comparison are said.
        Case(#"{"/": "/A", "caseSensitive": false}"#, "/a", .match, #"path "/a" matches "/A"; compared ignoring case ("caseSensitive": false)"#),
        Case(#"{"/": "/a b", "percentEncoded": false}"#, "/a%20b", .match, #"decoded path "/a b" matches "/a b""#),
        Case(#"{"?": {"q": "a b"}, "percentEncoded": false}"#, "/x?q=a%20b", .match, #"decoded query item "q" matches "a b""#),
        Case(#"{"/": "*", "exclude": true}"#, "/x", .exclude, #"path "/x" matches "*""#),
        Case(#"{}"#, "/x", .match, "it constrains nothing, so every URL matches"),
    ]

    @Test(arguments: cases)
    func wordsFitTheDecision(_ testCase: Case) throws {
        let result = try Fixtures.component(testCase.component).match("https://example.com\(testCase.url)")
        #expect(result.decision == testCase.decision)
        #expect(result.explanation.contains(testCase.words), "\(result.explanation)")
        let claimsMiss =
            result.explanation.contains("does not match") || result.explanation.contains("needs at least") || result.explanation.contains("expects exactly")
        #expect(claimsMiss == (testCase.decision == .none), "\(result.explanation)")
    }

    @Test func legacyPathsSayTheyIgnoreQueryAndFragment() throws {
        let matcher = try Fixtures.matcher(
            #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["NOT /a/private", "/a/*"]}]}}"#)
        let matched = try matcher.match("https://example.com/a/b?x#y")
        #expect(matched.explanation.contains(#"path "/a/b" matches "/a/*""#), "\(matched.explanation)")
        let blocked = try matcher.match("https://example.com/a/private")
        #expect(blocked.decision == .exclude)
        #expect(blocked.explanation.hasPrefix(#"blocked by applinks.details[0].paths[0] ("NOT /a/private")"#), "\(blocked.explanation)")
        let missed = try matcher.match("https://example.com/b")
        #expect(missed.explanation.contains("(legacy paths ignore the query and fragment)"))
    }
}
