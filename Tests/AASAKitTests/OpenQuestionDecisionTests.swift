import AASAKit
import OrderedJSON
import Testing

/// Pins the decision taken for each open question of spec §6.
@Suite("Open questions (spec §6)")
struct OpenQuestionDecisionTests {
    static let twoApps = """
        {"applinks": {"details": [
            {"appIDs": ["ABCDE12345.com.example.a"], "components": [{"/": "/shared/*", "exclude": true}]},
            {"appIDs": ["ABCDE12345.com.example.b"], "components": [{"/": "/shared/*"}]}
        ]}}
        """

    // §6.1 an exclusion for app A in entry 0 does not stop entry 1 matching for app B.
    @Test func crossAppExclusionOnlyBlocksItsOwnApps() throws {
        let result = try Fixtures.matcher(Self.twoApps).match("https://example.com/shared/1")
        #expect(result.decision == .match)
        #expect(result.detailsIndex == 1)
        #expect(result.appIDs == ["ABCDE12345.com.example.b"])
        #expect(result.appDecisions.map(\.decision) == [.exclude, .match])
        #expect(result.appDecisions.map(\.appID) == ["ABCDE12345.com.example.a", "ABCDE12345.com.example.b"])
        #expect(result.swcutilVerifyLines().count == 2)
        #expect(result.swcutilVerifyLines()[0].hasSuffix("blocked match."))
        #expect(try Fixtures.matcher(Self.twoApps).decision("https://example.com/shared/1", appID: "ABCDE12345.com.example.a") == .exclude)
    }

    // §6.1 the same app in several entries keeps the first entry's decision.
    @Test func sameAppInSeveralEntriesKeepsTheFirstDecision() throws {
        let json = """
            {"applinks": {"details": [
                {"appIDs": ["ABCDE12345.com.example.a"], "components": [{"/": "/x", "exclude": true}]},
                {"appIDs": ["ABCDE12345.com.example.a"], "components": [{"/": "*"}]}
            ]}}
            """
        let matcher = try Fixtures.matcher(json)
        let blocked = try matcher.match("https://example.com/x")
        #expect(blocked.decision == .exclude)
        #expect(blocked.detailsIndex == 0)
        let later = try matcher.match("https://example.com/y")
        #expect(later.decision == .match)
        #expect(later.detailsIndex == 1)
    }

    // §6.2 query item names fold under caseSensitive:false and are exact otherwise.
    @Test func queryItemNamesFollowCaseSensitivity() throws {
        #expect(try Fixtures.component(#"{"?": {"ID": "7"}, "caseSensitive": false}"#).decision("https://example.com/x?id=7") == .match)
        #expect(try Fixtures.component(#"{"?": {"ID": "7"}}"#).decision("https://example.com/x?id=7") == .none)
    }

    // §6.2 names and values are compared as written unless percentEncoded is false.
    @Test func queryItemsDecodeOnlyWhenPercentEncodedIsFalse() throws {
        #expect(try Fixtures.component(#"{"?": {"q": "a b"}}"#).decision("https://example.com/x?q=a%20b") == .none)
        #expect(try Fixtures.component(#"{"?": {"q": "a%20b"}}"#).decision("https://example.com/x?q=a%20b") == .match)
        #expect(try Fixtures.component(#"{"?": {"q": "a b"}, "percentEncoded": false}"#).decision("https://example.com/x?q=a%20b") == .match)
        #expect(try Fixtures.component(#"{"?": {"my key": "1"}, "percentEncoded": false}"#).decision("https://example.com/x?my%20key=1") == .match)
        // Items split before decoding: an encoded '&' stays inside the value.
        #expect(try Fixtures.component(#"{"?": {"q": "a&b"}, "percentEncoded": false}"#).decision("https://example.com/x?q=a%26b") == .match)
        // Items split on the byte '&' (as NSURLComponents splits UTF-16 units), even before a combining mark.
        #expect(try Fixtures.component("{\"?\": {\"\u{301}b\": \"2\"}}").decision("https://example.com/x?a=1&\u{301}b=2") == .match)
    }

    // §6.2 '+' is a literal plus, never a space.
    @Test func plusIsLiteral() throws {
        #expect(try Fixtures.component(#"{"?": {"q": "a+b"}}"#).decision("https://example.com/x?q=a+b") == .match)
        #expect(try Fixtures.component(#"{"?": {"q": "a b"}, "percentEncoded": false}"#).decision("https://example.com/x?q=a+b") == .none)
        #expect(try Fixtures.component(#"{"?": {"q": "a+b"}, "percentEncoded": false}"#).decision("https://example.com/x?q=a+b") == .match)
    }

    // §6.2 / §6.9 duplicate keys in the JSON: the last one wins, and the validator reports it.
    @Test func duplicateJSONKeysLastOneWins() throws {
        let json = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"?": {"id": "1", "id": "2"}}]}]}}"#
        let matcher = try Fixtures.matcher(json)
        #expect(try matcher.decision("https://example.com/x?id=2") == .match)
        #expect(try matcher.decision("https://example.com/x?id=1") == .none)
        let finding = try #require(AASAValidator().validate(bytes: Array(json.utf8)).findings(.duplicateKey).first)
        #expect(finding.path == #"applinks.details[0].components[0]["?"].id"#)
    }

    // §6.3 percentEncoded:false decodes the whole query string before a string pattern.
    @Test func percentEncodedFalseDecodesTheQueryString() throws {
        #expect(try Fixtures.component(#"{"?": "q=a b", "percentEncoded": false}"#).decision("https://example.com/x?q=a%20b") == .match)
        #expect(try Fixtures.component(#"{"?": "q=a b"}"#).decision("https://example.com/x?q=a%20b") == .none)
        #expect(try Fixtures.component(##"{"#": "été", "percentEncoded": false}"##).decision("https://example.com/x#%C3%A9t%C3%A9") == .match)
    }

    // §6.4 `*` crosses '/' and '.' (the recordings and the archived guide, not the TN3155 paraphrase).
    @Test func starCrossesSlashesAndDots() throws {
        let matcher = try Fixtures.component(#"{"/": "/videos/*"}"#)
        #expect(try matcher.decision("https://example.com/videos/wwdc/2015/intro.mp4") == .match)
        #expect(try matcher.decision("https://example.com/audio/wwdc.mp3") == .none)
    }

    // §6.5 defaults may carry '/', '?', '#' and 'exclude'; the more specific level wins.
    @Test func defaultsCarryEveryComponentKey() throws {
        let domainPath = try Fixtures.components(##"[{"#": "*"}]"##, domainDefaults: ##"{"/": "/foo/*"}"##)
        #expect(try domainPath.decision("https://example.com/bar") == .none)
        #expect(try domainPath.decision("https://example.com/foo/1") == .match)
        let domainExclude = try Fixtures.components(##"[{"#": "*"}]"##, domainDefaults: ##"{"exclude": true}"##)
        #expect(try domainExclude.decision("https://example.com/bar") == .exclude)
        let domainQuery = try Fixtures.components(##"[{"#": "*"}]"##, domainDefaults: ##"{"?": {"id": "??"}}"##)
        #expect(try domainQuery.decision("https://example.com/bar?id=7") == .none)
        #expect(try domainQuery.decision("https://example.com/bar?id=77") == .match)
        let appOverridesDomain = try Fixtures.components(
            #"[{"/": "/A"}]"#, entryDefaults: #"{"caseSensitive": true}"#,
            domainDefaults: #"{"caseSensitive": false}"#)
        #expect(try appOverridesDomain.decision("https://example.com/a") == .none)
        let componentOverridesApp = try Fixtures.components(#"[{"/": "/A", "caseSensitive": false}]"#, entryDefaults: #"{"caseSensitive": true}"#)
        #expect(try componentOverridesApp.decision("https://example.com/a") == .match)
        let domainCase = try Fixtures.components(#"[{"/": "/A"}]"#, domainDefaults: #"{"caseSensitive": false}"#)
        #expect(try domainCase.decision("https://example.com/a") == .match)
    }

    // §6.6 static ISO tables: UK is not a region, GB is; two-letter language codes only.
    @Test func regionAndLanguageTablesAreStatic() {
        let region = AASAPattern("$(region)")
        #expect(region.matches("GB"))
        #expect(region.matches("US"))
        #expect(!region.matches("UK"))
        #expect(!region.matches("gb"))
        #expect(AASAPattern("$(region)", caseSensitive: false).matches("gb"))
        let lang = AASAPattern("$(lang)")
        #expect(lang.matches("en"))
        #expect(lang.matches("zh"))
        #expect(!lang.matches("eng"))
        #expect(!lang.matches("EN"))
        #expect(AASAPredefinedVariable.region.values.count == 249)
        #expect(AASAPredefinedVariable.lang.values.count == 184)
    }

    // §6.7 `?` counts Unicode scalars of the compared text; case folding is simple one-to-one.
    @Test func questionMarkCountsScalars() throws {
        let decoded = try Fixtures.component(#"{"/": "/?/", "percentEncoded": false}"#)
        #expect(try decoded.decision("https://example.com/%C3%A9/") == .match)
        #expect(try decoded.decision("https://example.com/%F0%9F%98%80/") == .match)
        #expect(try decoded.decision("https://example.com/%C3%A9%C3%A9/") == .none)
        let encoded = try Fixtures.component(#"{"/": "/?/"}"#)
        #expect(try encoded.decision("https://example.com/%C3%A9/") == .none)
        #expect(AASAPattern("???").matches("%C3"))
    }

    @Test func nonASCIIFoldingIsOneToOne() {
        #expect(AASAPattern("élan", caseSensitive: false).matches("ÉLAN"))
        #expect(AASAPattern("straße", caseSensitive: false).matches("STRAßE"))
        #expect(!AASAPattern("straße", caseSensitive: false).matches("STRASSE"))
        #expect(!AASAPattern("élan").matches("ÉLAN"))
    }

    // §6.9 appID and appIDs together: the union.
    @Test func appIDAndAppIDsAreUnited() throws {
        let json =
            #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.a", "appIDs": ["ABCDE12345.com.example.b", "ABCDE12345.com.example.a"], "components": [{"/": "*"}]}]}}"#
        let document = try Fixtures.document(json)
        #expect(document.appLinks?.details.first?.appIDs == ["ABCDE12345.com.example.a", "ABCDE12345.com.example.b"])
        let result = try AASAMatcher(document).match("https://example.com/x")
        #expect(result.appIDs == ["ABCDE12345.com.example.a", "ABCDE12345.com.example.b"])
        #expect(AASAValidator().validate(document).findings(.appIDAndAppIDs).count == 1)
    }

    // §6.9 an entry with neither components nor paths matches nothing and is reported.
    @Test func entryWithoutRulesMatchesNothing() throws {
        let json =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.a"]}, {"appIDs": ["ABCDE12345.com.example.b"], "components": [{"/": "/x"}]}]}}"#
        let document = try Fixtures.document(json)
        #expect(document.diagnostics.map(\.code) == [.entryWithoutRules])
        let matcher = AASAMatcher(document)
        #expect(try matcher.decision("https://example.com/anything") == .none)
        #expect(try matcher.match("https://example.com/x").detailsIndex == 1)
    }

    // §6.9 a UTF-8 byte order mark is skipped and reported.
    @Test func byteOrderMarkIsAcceptedWithAWarning() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(Fixtures.rowhni.utf8)
        let document = try AASADocument(bytes: bytes)
        #expect(document.startsWithByteOrderMark)
        #expect(document.diagnostics.map(\.code) == [.byteOrderMark])
        #expect(try AASAMatcher(document).decision("https://rowhni.com/addfriend?code=A") == .match)
    }

    // Components and legacy paths in one entry: iOS 13+ reads only components.
    @Test func pathsAreIgnoredBesideComponents() throws {
        let json = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.a"], "components": [{"/": "/new/*"}], "paths": ["/old/*"]}]}}"#
        let matcher = try Fixtures.matcher(json)
        #expect(try matcher.decision("https://example.com/new/1") == .match)
        #expect(try matcher.decision("https://example.com/old/1") == .none)
    }

    // An undefined or unterminated variable makes the pattern unmatchable (not literal text).
    @Test func brokenVariableReferencesNeverMatch() {
        let unknown = AASAPattern("/x/$(nope)", role: .urlPath)
        #expect(unknown.problem == .unknownVariable("nope"))
        #expect(!unknown.matches("/x/$(nope)"))
        let open = AASAPattern("/x/$(nope", role: .urlPath)
        #expect(open.problem == .unterminatedVariable)
        #expect(!open.matches("/x/$(nope"))
        #expect(AASAPattern("/price/$5", role: .urlPath).matches("/price/$5"))
    }

    // A custom variable named like a predefined one replaces it.
    @Test func customVariableOverridesPredefinedName() {
        let variables = AASASubstitutionVariables(["digit": ["one", "two"]])
        #expect(AASAPattern("$(digit)", variables: variables).matches("one"))
        #expect(!AASAPattern("$(digit)", variables: variables).matches("1"))
        #expect(AASAPattern("$(digit)").matches("1"))
    }

    // Variable values may hold wildcards; a "$(" inside a value is plain text.
    @Test func variableValuesKeepWildcardsButNotVariables() {
        let variables = AASASubstitutionVariables(["id": ["item-*", "n?"], "nested": ["$(id)"]])
        let pattern = AASAPattern("/$(id)", role: .urlPath, variables: variables)
        #expect(pattern.matches("/item-42"))
        #expect(pattern.matches("/n7"))
        #expect(!pattern.matches("/n77"))
        #expect(AASAPattern("$(nested)", variables: variables).matches("$(id)"))
        #expect(!AASAPattern("$(nested)", variables: variables).matches("item-1"))
    }

    // A wrongly typed key skips its component rather than dropping the key.
    @Test func wronglyTypedComponentIsSkippedNotReinterpreted() throws {
        let matcher = try Fixtures.components(#"[{"/": "/private/*", "exclude": "yes"}, {"/": "/private/ok"}]"#)
        let result = try matcher.match("https://example.com/private/ok")
        #expect(result.decision == .match)
        #expect(result.componentIndex == 1)
        #expect(try matcher.decision("https://example.com/private/secret") == .none)
    }

    // A dictionary voided by a non-string predicate accepts any query, even over defaults.
    @Test func voidedDictionaryAcceptsAnyQuery() throws {
        let matcher = try Fixtures.components(#"[{"/": "/x", "?": {"a": "1", "b": false}}]"#, domainDefaults: #"{"?": {"a": "9"}}"#)
        #expect(try matcher.decision("https://example.com/x?a=5") == .match)
    }
}
