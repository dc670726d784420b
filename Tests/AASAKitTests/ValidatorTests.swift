import AASAKit
import Testing

/// One case per validation code: the file, and the code, severity and path it must produce.
@Suite("Validator")
struct ValidatorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let code: AASAValidationCode
        let severity: AASASeverity
        let path: String
        let bytes: [UInt8]
        var testDescription: String { code.rawValue }

        init(_ code: AASAValidationCode, _ severity: AASASeverity, _ path: String, _ json: String) {
            self.init(code, severity, path, bytes: Array(json.utf8))
        }

        init(_ code: AASAValidationCode, _ severity: AASASeverity, _ path: String, bytes: [UInt8]) {
            self.code = code
            self.severity = severity
            self.path = path
            self.bytes = bytes
        }
    }

    static func entry(_ body: String) -> String {
        #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], \#(body)}]}}"#
    }

    static func component(_ body: String) -> String {
        entry(#""components": [\#(body)]"#)
    }

    static let oversized: [UInt8] = {
        let padding = String(repeating: "x", count: 131_072)
        return Array(component(#"{"/": "/a", "comment": "\#(padding)"}"#).utf8)
    }()

    static let cases: [Case] = [
        Case(.notJSON, .error, "applinks", #"{"applinks": }"#),
        Case(.rootNotObject, .error, "$", "[1, 2]"),
        Case(.fileTooLarge, .error, "$", bytes: oversized),
        Case(.byteOrderMark, .warning, "$", bytes: [0xEF, 0xBB, 0xBF] + Array(component(#"{"/": "/a"}"#).utf8)),
        Case(.duplicateKey, .warning, "applinks.details[0].components[0].exclude", component(#"{"/": "/a", "exclude": true, "exclude": false}"#)),
        Case(.unknownKey, .warning, "applinks.details[0].components[0].casesensitive", component(#"{"/": "/a", "casesensitive": false}"#)),
        Case(.wrongType, .error, "applinks.details[0].components[0].exclude", component(#"{"/": "/a", "exclude": "yes"}"#)),
        Case(.noAppLinks, .warning, "$", #"{"webcredentials": {"apps": ["ABCDE12345.com.example.app"]}}"#),
        Case(.noDetails, .warning, "applinks.details", #"{"applinks": {"details": []}}"#),
        Case(
            .malformedAppID, .error, "applinks.details[0].appIDs[1]",
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app", "com.example.app"], "components": [{"/": "/a"}]}]}}"#),
        Case(.unusualTeamID, .warning, "applinks.details[0].appID", #"{"applinks": {"details": [{"appID": "TEAMID.com.example.app", "paths": ["/a"]}]}}"#),
        Case(
            .appIDAndAppIDs, .warning, "applinks.details[0]",
            #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "appIDs": ["ABCDE12345.com.example.app"], "paths": ["/a"]}]}}"#),
        Case(.entryWithoutApp, .error, "applinks.details[0]", #"{"applinks": {"details": [{"components": [{"/": "/a"}]}]}}"#),
        Case(.entryWithoutRules, .warning, "applinks.details[0]", entry(#""defaults": {"caseSensitive": false}"#)),
        Case(.pathsBesideComponents, .warning, "applinks.details[0].paths", entry(#""components": [{"/": "/a"}], "paths": ["/b"]"#)),
        Case(
            .appInSeveralEntries, .warning, "applinks.details[1]",
            #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/a"]}, {"appID": "ABCDE12345.com.example.app", "paths": ["/b"]}]}}"#),
        Case(.legacyDetailsDictionary, .warning, "applinks.details", #"{"applinks": {"details": {"ABCDE12345.com.example.app": {"paths": ["/a"]}}}}"#),
        Case(
            .legacyAppsNotEmpty, .warning, "applinks.apps",
            #"{"applinks": {"apps": ["ABCDE12345.com.example.app"], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/a"]}]}}"#),
        Case(
            .duplicateAppID, .warning, "applinks.details[0].appIDs[1]",
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app"], "components": [{"/": "/a"}]}]}}"#),
        Case(.shadowedRule, .warning, "applinks.details[0].components[1]", component(#"{"/": "/a/*"}, {"/": "/a/b"}"#)),
        Case(.wholeSiteCatchAll, .warning, "applinks.details[0].components[0]", component(#"{"/": "*"}"#)),
        Case(.nonStringQueryPredicate, .error, #"applinks.details[0].components[0]["?"].flag"#, component(#"{"/": "/a", "?": {"id": "1", "flag": true}}"#)),
        Case(.nonASCIIPatternWhileEncoded, .warning, #"applinks.details[0].components[0]["/"]"#, component(#"{"/": "/哈哈/*"}"#)),
        Case(
            .patternTooComplex, .error, ##"applinks.details[0].components[0]["#"]"##,
            ##"{"applinks": {"substitutionVariables": {"v": [\##((0..<2_000).map { "\"long-value-number-\($0)\"" }.joined(separator: ","))]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a", "#": "$(v)$(v)"}]}]}}"##
        ),
        Case(.wholeSiteExclusion, .error, "applinks.details[0].components[0]", component(#"{"/": "*", "exclude": true}, {"/": "/a"}"#)),
        Case(
            .wholeSiteExclusionShadows, .warning, "applinks.details[0].components[1]",
            component(#"{"/": "/a"}, {"/": "/*", "exclude": true}, {"/": "/b"}"#)),
        Case(
            .exclusionLookalike, .error, "applinks.details[0].paths[0]",
            #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["not /private/*", "/*"]}]}}"#),
        Case(.characterNotInURL, .warning, #"applinks.details[0].components[0]["/"]"#, component(#"{"/": "/a b"}"#)),
        Case(.pathologicalPattern, .warning, #"applinks.details[0].components[0]["/"]"#, component(#"{"/": "/\#(String(repeating: "a*", count: 300))"}"#)),
        Case(.unknownVariable, .error, #"applinks.details[0].components[0]["?"].id"#, component(#"{"/": "/a", "?": {"id": "$(nope)"}}"#)),
        Case(.unterminatedVariable, .error, #"applinks.details[0].components[0]["/"]"#, component(#"{"/": "/a/$(lang"}"#)),
        Case(
            .variableInVariableValue, .error, "applinks.substitutionVariables.v[1]",
            #"{"applinks": {"substitutionVariables": {"v": ["a", "$(lang)"]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/$(v)"}]}]}}"#
        ),
        Case(
            .invalidVariableName, .error, #"applinks.substitutionVariables["bad(name"]"#,
            #"{"applinks": {"substitutionVariables": {"bad(name": ["x"]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}]}]}}"#
        ),
        Case(
            .variableShadowsPredefined, .warning, "applinks.substitutionVariables.alpha",
            #"{"applinks": {"substitutionVariables": {"alpha": ["x"]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/$(alpha)"}]}]}}"#
        ),
        Case(
            .emptyVariable, .warning, "applinks.substitutionVariables.v",
            #"{"applinks": {"substitutionVariables": {"v": []}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/$(v)"}]}]}}"#),
        Case(
            .emptyVariableValue, .warning, "applinks.substitutionVariables.v[1]",
            #"{"applinks": {"substitutionVariables": {"v": ["a", ""]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/$(v)"}]}]}}"#
        ),
        Case(
            .unusedVariable, .warning, "applinks.substitutionVariables.v",
            #"{"applinks": {"substitutionVariables": {"v": ["a"]}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/$(w)"}]}]}}"#),
        Case(.signedFile, .warning, "$", bytes: SignedFileTests.handMadeEnvelope(#"{"applinks": {"details": []}}"#)),
    ]

    @Test(arguments: cases)
    func reportsCodeSeverityAndPath(_ testCase: Case) throws {
        let report = AASAValidator().validate(bytes: testCase.bytes)
        let finding = try #require(report.findings(testCase.code).first, "\(report.findings)")
        #expect(finding.severity == testCase.severity)
        #expect(finding.code.severity == testCase.severity)
        #expect(finding.path == testCase.path)
        #expect(!finding.message.isEmpty)
        #expect(!finding.fix.isEmpty)
        #expect(report.hasErrors == report.findings.contains { $0.severity == .error })
    }

    @Test func everyCodeHasACase() {
        #expect(Set(Self.cases.map(\.code)) == Set(AASAValidationCode.allCases))
    }

    @Test func codesAreUniqueAndWellFormed() {
        let raw = AASAValidationCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        #expect(raw.allSatisfy { $0.hasPrefix("AASA") && $0.count == 7 })
    }

    /// One entry for iOS 12 (`appID`, `paths`) and iOS 13+ (`appIDs` naming that app, `components`),
    /// as Apple described it at WWDC19 and `aasa.legacyPaths` generates it: neither AASA012 nor AASA015.
    @Test func theOneEntryFormForIOS12And13IsClean() {
        let json =
            #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}], "paths": ["/a"]}]}}"#
        #expect(AASAValidator().validate(bytes: Array(json.utf8)).findings.isEmpty)
    }

    /// iOS 12 reads an entry by its `appID` and its `paths`, whatever else the entry holds: AASA015
    /// (paths no device reads) is only for an entry without `appID`.
    @Test func anEntryWithAppIDKeepsItsPathsForIOS12() {
        let alone = #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "components": [{"/": "/a"}], "paths": ["/a"]}]}}"#
        let codes = AASAValidator().validate(bytes: Array(alone.utf8)).findings.map(\.code)
        #expect(!codes.contains(.pathsBesideComponents), "\(codes)")
        // With `appIDs` naming another app, AASA012 says so; the paths still serve iOS 12.
        let other =
            #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.other", "appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}], "paths": ["/a"]}]}}"#
        let otherCodes = AASAValidator().validate(bytes: Array(other.utf8)).findings.map(\.code)
        #expect(otherCodes.contains(.appIDAndAppIDs) && !otherCodes.contains(.pathsBesideComponents), "\(otherCodes)")
    }

    @Test func cleanFileHasNoFindings() {
        let json = Self.component(#"{"/": "/items/*", "?": {"id": "?*"}}, {"/": "/about"}"#)
        #expect(AASAValidator().validate(bytes: Array(json.utf8)).findings.isEmpty)
    }

    @Test(arguments: [
        (#"{"/": "/x"}, {"/": "/x"}"#, true),
        // (An earlier "/*" would be a catch-all, reported once on itself: RuleOrderLintTests.)
        (#"{"/": "/a/*"}, {"/": "/a/x", "?": {"a": "1"}}"#, true),
        (#"{"/": "/a/*", "exclude": true}, {"/": "/a/b"}"#, true),
        (#"{"/": "/a/*", "?": {"id": "?*"}}, {"/": "/a/b", "?": {"id": "7", "x": "1"}}"#, true),
        (#"{"/": "/a/*"}, {"/": "/a"}"#, true),
        (#"{"/": "/$(digit)"}, {"/": "/7"}"#, true),
        (#"{"/": "/x"}, {"/": "/*"}"#, false),
        (#"{"/": "/a/*", "?": {"id": "?*"}}, {"/": "/a/b"}"#, false),
        (##"{"/": "/a/*", "#": "top"}, {"/": "/a/b"}"##, false),
        (#"{"/": "/a/*", "caseSensitive": false}, {"/": "/a/b"}"#, false),
        (#"{"/": "/a/?"}, {"/": "/a/*"}"#, false),
        (#"{"?": "a=*"}, {"?": {"a": "1"}}"#, false),
    ])
    func shadowedRules(components: String, shadowed: Bool) {
        let report = AASAValidator().validate(bytes: Array(Self.component(components).utf8))
        #expect(report.findings(.shadowedRule).map(\.path) == (shadowed ? ["applinks.details[0].components[1]"] : []))
    }

    @Test(arguments: [
        (#"{"/": "*"}"#, true),
        (#"{}"#, true),
        (##"{"/": "/*", "#": "*"}"##, true),
        (#"{"/": "*", "?": {"a": "?*"}}"#, false),
        (#"{"/": "*", "exclude": true}"#, false),
        (#"{"/": "/a/*"}"#, false),
    ])
    func catchAllComponents(component: String, flagged: Bool) {
        let report = AASAValidator().validate(bytes: Array(Self.component(component).utf8))
        #expect(report.findings(.wholeSiteCatchAll).count == (flagged ? 1 : 0))
    }

    @Test func legacyCatchAllAndShadowedPaths() {
        let json = #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": ["NOT /private/*", "/private/x", "*"]}]}}"#
        let report = AASAValidator().validate(bytes: Array(json.utf8))
        #expect(report.findings(.shadowedRule).map(\.path) == ["applinks.details[0].paths[1]"])
        #expect(report.findings(.wholeSiteCatchAll).map(\.path) == ["applinks.details[0].paths[2]"])
    }

    @Test(arguments: [
        ("ABCDE12345.com.example.app", nil as AASAValidationCode?),
        ("ABCDE12345.com.example-app.Clip", nil),
        ("TEAMID.com.example.app", .unusualTeamID),
        ("ABCDE123456.com.example.app", .unusualTeamID),
        ("abcde12345.com.example.app", .malformedAppID),
        ("ABCDE12345", .malformedAppID),
        ("ABCDE12345.", .malformedAppID),
        ("ABCDE12345.com..app", .malformedAppID),
        ("ABCDE12345.com.example_app", .malformedAppID),
        (".com.example.app", .malformedAppID),
    ])
    func appIDFormats(appID: String, expected: AASAValidationCode?) {
        let json =
            #"{"webcredentials": {"apps": ["\#(appID)"]}, "applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a"}]}]}}"#
        let report = AASAValidator().validate(bytes: Array(json.utf8))
        let codes = report.findings.map(\.code).filter { $0 == .unusualTeamID || $0 == .malformedAppID }
        #expect(codes == (expected.map { [$0] } ?? []))
        if expected != nil { #expect(report.findings.first?.path == "webcredentials.apps[0]") }
    }

    @Test func nonASCIIIsFineWhenDecoding() {
        let json = Self.entry(#""defaults": {"percentEncoded": false}, "components": [{"/": "/哈哈/*"}]"#)
        #expect(AASAValidator().validate(bytes: Array(json.utf8)).findings(.nonASCIIPatternWhileEncoded).isEmpty)
    }

    @Test func unknownKeysAreReportedAtEveryLevel() {
        let json =
            #"{"applink": {}, "applinks": {"detail": [], "details": [{"appId": "x", "appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/a", "Exclude": true}], "defaults": {"flag": 1}}]}, "webcredentials": {"app": []}}"#
        let paths = AASAValidator().validate(bytes: Array(json.utf8)).findings(.unknownKey).map(\.path)
        #expect(
            paths == [
                "applink", "applinks.detail", "applinks.details[0].appId",
                "applinks.details[0].components[0].Exclude", "applinks.details[0].defaults.flag", "webcredentials.app",
            ])
    }

    @Test func findingDescriptionIsOneLine() throws {
        let report = AASAValidator().validate(bytes: Array(Self.component(#"{"/": "/a", "exclude": "yes"}"#).utf8))
        let finding = try #require(report.findings.first)
        #expect(finding.description.hasPrefix("error AASA007 applinks.details[0].components[0].exclude: expected true or false"))
        #expect(!finding.description.contains("\n"))
    }
}
