import AASAKit
import Testing

/// Each numbered rule of spec §3, with a URL that matches and one that does not.
@Suite("Matching rules (spec §3)")
struct MatchingRuleTests {
    // §3.1 wildcards
    @Test(arguments: [
        ("/buy/*", "/buy/42/x", true),
        ("/buy/*", "/sell/42", false),
        ("/id/????", "/id/4812", true),
        ("/id/????", "/id/481", false),
        ("/p/?*", "/p/a", true),
        ("/p/?*", "/p/", false),
        ("/a*b", "/a/x/y/b", true),
        ("/a*b", "/a/x/y/c", false),
    ])
    func rule1Wildcards(pattern: String, path: String, matches: Bool) throws {
        let matcher = try Fixtures.component(#"{"/": "\#(pattern)"}"#)
        #expect(try matcher.decision("https://example.com\(path)") == (matches ? .match : .none))
    }

    @Test func rule1HasNoEscapeSyntax() {
        #expect(AASAPattern(#"a\*"#).matches(#"a\bcd"#))
        #expect(!AASAPattern(#"a\*"#).matches("a*"))
        #expect(AASAPattern(#"x\?"#).matches(#"x\y"#))
    }

    @Test func rule1PatternMustCoverTheWholeComponent() {
        #expect(AASAPattern("????").matches("abcd"))
        #expect(!AASAPattern("????").matches("abcde"))
        #expect(!AASAPattern("abc").matches("abcd"))
        #expect(!AASAPattern("bcd").matches("abcd"))
    }

    // §3.2 all specified parts must match; unspecified ones are `*`
    @Test func rule2AllSpecifiedPartsMustMatch() throws {
        let matcher = try Fixtures.component(##"{"/": "/a", "?": "x=1", "#": "top"}"##)
        #expect(try matcher.decision("https://example.com/a?x=1#top") == .match)
        #expect(try matcher.decision("https://example.com/a?x=1#bottom") == .none)
        #expect(try matcher.decision("https://example.com/a?x=2#top") == .none)
        let pathOnly = try Fixtures.component(#"{"/": "/a"}"#)
        #expect(try pathOnly.decision("https://example.com/a?anything=1#anywhere") == .match)
        #expect(try pathOnly.decision("https://example.com/b?anything=1") == .none)
    }

    // §3.3 an absent part reads as the empty string
    @Test(arguments: [
        (#"{"?": {"b": "*"}}"#, "https://example.com/x", true),
        (#"{"?": {"b": ""}}"#, "https://example.com/x?a=1", true),
        (#"{"?": {"b": "?*"}}"#, "https://example.com/x?a=1", false),
        (#"{"?": {"b": "?*"}}"#, "https://example.com/x?b", false),
        (#"{"?": "?*"}"#, "https://example.com/x", false),
        (#"{"?": "?*"}"#, "https://example.com/x?q", true),
        (##"{"#": "?*"}"##, "https://example.com/x", false),
        (##"{"#": ""}"##, "https://example.com/x", true),
        (##"{"#": ""}"##, "https://example.com/x#f", false),
    ])
    func rule3AbsentReadsAsEmpty(component: String, url: String, matches: Bool) throws {
        #expect(try Fixtures.component(component).decision(url) == (matches ? .match : .none))
    }

    // §3.4 a query string pattern covers the whole raw query
    @Test func rule4QueryStringMatchesTheWholeQuery() throws {
        let matcher = try Fixtures.component(#"{"?": "a=1"}"#)
        #expect(try matcher.decision("https://example.com/x?a=1") == .match)
        #expect(try matcher.decision("https://example.com/x?a=1&b=2") == .none)
        let star = try Fixtures.component(#"{"?": "a=1*"}"#)
        #expect(try star.decision("https://example.com/x?a=1&b=2") == .match)
    }

    // §3.5 query dictionaries
    @Test(arguments: [
        ("?id=7&id=7", #"{"id": "7"}"#, true),
        ("?id=7&id=42", #"{"id": "42"}"#, false),
        ("?id=42&id=7", #"{"id": "42"}"#, false),
        ("?z=9&id=42&other=1", #"{"id": "42"}"#, true),
        ("?b=2&a=1", #"{"a": "1", "b": "2"}"#, true),
        ("?a=1", #"{"a": "1", "b": "2"}"#, false),
        ("?a=2", #"{"a": "1", "flag": true}"#, true),
        ("?a=2", #"{"a": "1", "n": 3}"#, true),
        ("?a=2", #"{"a": "1", "list": ["x"]}"#, true),
        ("?a=2", #"{"a": "1"}"#, false),
    ])
    func rule5QueryDictionaries(query: String, dictionary: String, matches: Bool) throws {
        let matcher = try Fixtures.component(#"{"?": \#(dictionary)}"#)
        #expect(try matcher.decision("https://example.com/x\(query)") == (matches ? .match : .none))
    }

    // §3.6 case
    @Test func rule6CaseSensitiveByDefault() throws {
        #expect(try Fixtures.component(#"{"/": "/Path"}"#).decision("https://example.com/path") == .none)
        #expect(try Fixtures.component(#"{"/": "/Path", "caseSensitive": false}"#).decision("https://example.com/pATH") == .match)
    }

    @Test func rule6FoldingReachesValuesAndVariables() throws {
        let matcher = try Fixtures.component(#"{"/": "/x/$(upper)", "?": {"k": "Value"}, "caseSensitive": false}"#)
        #expect(try matcher.decision("https://example.com/x/q?k=VALUE") == .match)
        let sensitive = try Fixtures.component(#"{"/": "/x/$(upper)"}"#)
        #expect(try sensitive.decision("https://example.com/x/q") == .none)
        #expect(try sensitive.decision("https://example.com/x/Q") == .match)
    }

    @Test func rule6HostComparisonIgnoresCase() throws {
        let matcher = try Fixtures.component(#"{"/": "/a"}"#)
        #expect(try matcher.decision("https://EXAMPLE.com/a", domain: "example.COM") == .match)
        #expect(try matcher.decision("https://example.org/a", domain: "example.com") == .none)
    }

    @Test func rule6LegacyPathsAreCaseSensitive() throws {
        let matcher = try Fixtures.matcher(#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/Videos/*"]}]}}"#)
        #expect(try matcher.decision("https://example.com/Videos/1") == .match)
        #expect(try matcher.decision("https://example.com/videos/1") == .none)
    }

    // §3.7 percent-encoding
    @Test(arguments: [
        (#"{"/": "/a%20b"}"#, "/a%20b", true),
        (#"{"/": "/a b"}"#, "/a%20b", false),
        (#"{"/": "/a/b"}"#, "/a%2Fb", false),
        (#"{"/": "/a%2Fb"}"#, "/a%2fb", false),
        (#"{"/": "/a b", "percentEncoded": false}"#, "/a%20b", true),
        (#"{"/": "/café", "percentEncoded": false}"#, "/caf%C3%A9", true),
        (#"{"/": "/a%20b", "percentEncoded": false}"#, "/a%20b", false),
        (#"{"/": "/a/b", "percentEncoded": false}"#, "/a%2Fb", true),
    ])
    func rule7PercentEncoding(component: String, path: String, matches: Bool) throws {
        #expect(try Fixtures.component(component).decision("https://example.com\(path)") == (matches ? .match : .none))
    }

    // §3.8 order, exclusion, first match wins
    @Test func rule8FirstMatchWinsAndExcludeStops() throws {
        let matcher = try Fixtures.components(#"[{"/": "/a/private/*", "exclude": true}, {"/": "/a/*"}, {"/": "/a/private/x"}]"#)
        let blocked = try matcher.match("https://example.com/a/private/x")
        #expect(blocked.decision == .exclude)
        #expect(blocked.componentIndex == 0)
        let opened = try matcher.match("https://example.com/a/public")
        #expect(opened.decision == .match)
        #expect(opened.componentIndex == 1)
        let reversed = try Fixtures.components(#"[{"/": "/a/*"}, {"/": "/a/private/*", "exclude": true}]"#)
        #expect(try reversed.decision("https://example.com/a/private/x") == .match)
    }

    @Test func rule8LegacyNotStopsEvaluation() throws {
        let matcher = try Fixtures.matcher(#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["NOT /a/b", "/a/*"]}]}}"#)
        #expect(try matcher.decision("https://example.com/a/b") == .exclude)
        #expect(try matcher.decision("https://example.com/a/c") == .match)
    }

    // §3.9 across details entries
    @Test func rule9FirstEntryDecidesItsApps() throws {
        let json = """
            {"applinks": {"details": [
                {"appIDs": ["ABCDE12345.com.example.one"], "components": [{"/": "/one/*"}]},
                {"appIDs": ["ABCDE12345.com.example.two"], "components": [{"/": "*"}]}
            ]}}
            """
        let matcher = try Fixtures.matcher(json)
        let first = try matcher.match("https://example.com/one/1")
        #expect(first.decision == .match)
        #expect(first.detailsIndex == 0)
        #expect(first.appIDs == ["ABCDE12345.com.example.one"])
        let rest = try matcher.match("https://example.com/other")
        #expect(rest.detailsIndex == 1)
        #expect(rest.appIDs == ["ABCDE12345.com.example.two"])
        #expect(try matcher.decision("https://example.com/other", appID: "ABCDE12345.com.example.one") == .none)
    }

    // §3.10 slashes in paths
    @Test(arguments: [
        ("abc", "/abc", true),
        ("//abc", "/abc", true),
        ("/buy", "/buy/", true),
        ("/buy/", "/buy", true),
        ("/buy", "/buy//", true),
        ("/buy/*", "/buy", true),
        ("/buy/*", "/buy//", true),
        ("/buy/*", "/buyer", false),
        ("/id/????", "/id/481", false),
        ("/", "", true),
        ("/", "/x", false),
        ("abc", "/abcd", false),
    ])
    func rule10PathSlashes(pattern: String, path: String, matches: Bool) throws {
        let matcher = try Fixtures.component(#"{"/": "\#(pattern)"}"#)
        #expect(try matcher.decision("https://example.com\(path)") == (matches ? .match : .none))
    }

    // §3.11 legacy paths: path only
    @Test func rule11LegacyPathsIgnoreQueryAndFragment() throws {
        let matcher = try Fixtures.matcher(#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/search/", "/item/?"]}]}}"#)
        #expect(try matcher.decision("https://example.com/search/?q=macaroni#top") == .match)
        #expect(try matcher.decision("https://example.com/item/7") == .match)
        #expect(try matcher.decision("https://example.com/item/?x") == .none)
        #expect(try matcher.decision("https://example.com/item/77") == .none)
        let whole = try Fixtures.matcher(#"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["*"]}]}}"#)
        #expect(try whole.decision("https://example.com/any/thing?at=all") == .match)
        #expect(try whole.decision("https://example.com") == .match)
    }

    // §3.12 fragment-routed single-page apps
    @Test func rule12FragmentRoutes() throws {
        let matcher = try Fixtures.component(##"{"/": "/", "#": "/market/*"}"##)
        #expect(try matcher.decision("https://example.com/#/market/x") == .match)
        #expect(try matcher.decision("https://example.com/#/account") == .none)
        let wrongPart = try Fixtures.component(#"{"/": "/market/*"}"#)
        #expect(try wrongPart.decision("https://example.com/#/market/x") == .none)
    }
}

@Suite("Whether the path alone decides")
struct QueryIndependenceTests {
    static func matcher(_ components: String) throws -> AASAMatcher {
        try AASAMatcher(AASADocument(bytes: Array(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.a"], "components": [\#(components)]}]}}"#.utf8)))
    }

    @Test func theFirstComponentWhosePathFitsDecidesWhenItAcceptsEveryQuery() throws {
        let matcher = try Self.matcher(#"{"/": "/a", "?": {"id": "?*"}}, {"/": "/b", "?": {"x": "*"}}, {"/": "/c", "?": "*"}, {"/": "*"}"#)
        #expect(!matcher.decidesWithoutQuery(try AASAURL("https://x.example/a")))
        #expect(matcher.decidesWithoutQuery(try AASAURL("https://x.example/b")))
        #expect(matcher.decidesWithoutQuery(try AASAURL("https://x.example/c")))
        #expect(matcher.decidesWithoutQuery(try AASAURL("https://x.example/d")))
        // An exclusion whose query decides makes the query decide as well.
        let excluding = try Self.matcher(#"{"/": "/a", "?": {"preview": "1"}, "exclude": true}, {"/": "/a"}"#)
        #expect(!excluding.decidesWithoutQuery(try AASAURL("https://x.example/a")))
        #expect(excluding.decidesWithoutQuery(try AASAURL("https://x.example/z")))
    }
}
