import AASAKit
import Testing

/// The lints beyond format errors: repeated app IDs, exclusions that are not, text a URL never
/// holds, runs of `*`, and variables that are empty or never used — each on a minimal file.
@Suite("Lints")
struct LintTests {
    static func report(_ json: String) -> AASAValidationReport {
        AASAValidator().validate(bytes: Array(json.utf8))
    }

    static func legacy(_ paths: String) -> String {
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": [\#(paths)]}]}}"#
    }

    static func withVariables(_ variables: String, _ components: String) -> String {
        #"{"applinks": {"substitutionVariables": \#(variables), "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [\#(components)]}]}}"#
    }

    // MARK: AASA019

    @Test(arguments: [
        (#"{"webcredentials": {"apps": ["ABCDE12345.com.a", "ABCDE12345.com.b", "ABCDE12345.com.a"]}}"#, "webcredentials.apps[2]"),
        (#"{"appclips": {"apps": ["ABCDE12345.com.a.Clip", "ABCDE12345.com.a.Clip"]}}"#, "appclips.apps[1]"),
        (#"{"activitycontinuation": {"apps": ["ABCDE12345.com.a", "ABCDE12345.com.a"]}}"#, "activitycontinuation.apps[1]"),
        (
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.a", "ABCDE12345.com.b", "ABCDE12345.com.b"], "components": [{"/": "/a"}]}]}}"#,
            "applinks.details[0].appIDs[2]"
        ),
    ])
    func repeatedAppIDsInOneList(json: String, path: String) throws {
        let findings = Self.report(json).findings(.duplicateAppID)
        #expect(findings.map(\.path) == [path])
        let finding = try #require(findings.first)
        #expect(finding.message.contains("listed twice"))
        #expect(finding.fix == "remove this repeat")
    }

    @Test func theSameAppAcrossListsIsNotARepeat() {
        let json =
            #"{"webcredentials": {"apps": ["ABCDE12345.com.a"]}, "appclips": {"apps": ["ABCDE12345.com.a.Clip"]}, "applinks": {"details": [{"appIDs": ["ABCDE12345.com.a"], "components": [{"/": "/a"}]}]}}"#
        #expect(Self.report(json).findings(.duplicateAppID).isEmpty)
    }

    // MARK: AASA027

    @Test(arguments: [
        (#""not /private/*""#, "NOT /private/*", "paths[0]"),
        (#""Not /private/*""#, "NOT /private/*", "paths[0]"),
        (#""NOT/private/*""#, "NOT /private/*", "paths[0]"),
        (#""NOT  /private/*""#, "NOT /private/*", "paths[0]"),
        (#""NOT\t/private/*""#, "NOT /private/*", "paths[0]"),
        (#"" NOT /private/*""#, "NOT /private/*", "paths[0]"),
    ])
    func legacyExclusionLookalikes(path: String, fix: String, at: String) throws {
        let report = Self.report(Self.legacy("\(path), \"/*\""))
        let finding = try #require(report.findings(.exclusionLookalike).first, "\(report.findings)")
        #expect(finding.path == "applinks.details[0].\(at)")
        #expect(finding.severity == .error)
        #expect(finding.message.contains("looks like an exclusion but is not"))
        #expect(finding.fix == "write \"\(fix)\"")
        // The raw space it holds is this finding's business, not a second one.
        #expect(report.findings(.characterNotInURL).isEmpty)
    }

    @Test(arguments: [#""NOT /private/*""#, #""/not/found""#, #""not/found""#, #""/notes/*""#, #""notes/*""#, #""NOTICE""#, #""not*""#])
    func realExclusionsAndPathsStartingWithNotAreFine(path: String) {
        #expect(Self.report(Self.legacy("\(path), \"/*\"")).findings(.exclusionLookalike).isEmpty)
    }

    @Test func aComponentPathWithNOTExcludesNothing() throws {
        let report = Self.report(ValidatorTests.component(#"{"/": "NOT /private/*"}, {"/": "*"}"#))
        let finding = try #require(report.findings(.exclusionLookalike).first)
        #expect(finding.path == #"applinks.details[0].components[0]["/"]"#)
        #expect(finding.fix.contains(#"{"/": "/private/*", "exclude": true}"#))
    }

    // MARK: AASA028

    @Test(arguments: [
        (#"{"/": "/a b"}"#, #"["/"]"#, "a raw space", "/a%20b"),
        (#"{"/": "/a\"b"}"#, #"["/"]"#, #""""#, "/a%22b"),
        (#"{"/": "/{id}"}"#, #"["/"]"#, #""{""#, "/%7Bid%7D"),
        (#"{"/": "/a|b"}"#, #"["/"]"#, #""|""#, "/a%7Cb"),
        (#"{"/": "/100%"}"#, #"["/"]"#, #"a "%" that starts no escape"#, "/100%25"),
        (##"{"/": "/a#b"}"##, #"["/"]"#, ##""#" (it would start the fragment)"##, "/a%23b"),
        (#"{"?": "q=a b"}"#, #"["?"]"#, "a raw space", "q=a%20b"),
        (#"{"?": {"q": "a<b"}}"#, #"["?"].q"#, #""<""#, "a%3Cb"),
        (#"{"?": {"my key": "1"}}"#, #"["?"]["my key"]"#, "a raw space", "my%20key"),
        (##"{"#": "a b"}"##, ##"["#"]"##, "a raw space", "a%20b"),
    ])
    func textAURLNeverHolds(component: String, key: String, found: String, encoded: String) throws {
        let findings = Self.report(ValidatorTests.component(component)).findings(.characterNotInURL)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.path == "applinks.details[0].components[0]\(key)")
        #expect(finding.message.contains(found), "\(finding.message)")
        #expect(finding.fix.contains("\"\(encoded)\""), "\(finding.fix)")
    }

    @Test(arguments: [
        #"{"/": "/a%20b/%2F/%??/%*"}"#,
        #"{"/": "/a b", "percentEncoded": false}"#,
        ##"{"#": "a#b"}"##,
        #"{"/": "/$(Canadian food)"}"#,
    ])
    func escapesDecodedRulesAndVariableNamesAreFine(component: String) {
        let json = Self.withVariables(#"{"Canadian food": ["poutine"]}"#, component)
        #expect(Self.report(json).findings(.characterNotInURL).isEmpty)
    }

    @Test func legacyPathsAreCheckedToo() {
        let report = Self.report(Self.legacy(#""/a b", "NOT /c d""#))
        #expect(report.findings(.characterNotInURL).map(\.path) == ["applinks.details[0].paths[0]", "applinks.details[0].paths[1]"])
    }

    // MARK: AASA029

    @Test func hundredsOfStarsAreReportedAFewAreNot() throws {
        let many = Self.report(ValidatorTests.component(#"{"/": "/\#(String(repeating: "*", count: 400))"}"#))
        let finding = try #require(many.findings(.pathologicalPattern).first)
        #expect(finding.message.contains("has 400 \"*\""))
        #expect(finding.message.count < 400, "the pattern is shown shortened")
        let seventeen = String(repeating: "a*", count: 17)
        #expect(Self.report(ValidatorTests.component(#"{"/": "/\#(seventeen)"}"#)).findings(.pathologicalPattern).count == 1)
        let sixteen = String(repeating: "a*", count: 16)
        #expect(Self.report(ValidatorTests.component(#"{"/": "/\#(sixteen)"}"#)).findings(.pathologicalPattern).isEmpty)
    }

    // MARK: AASA035–037

    @Test func emptyAndUnusedVariables() {
        let json = Self.withVariables(#"{"used": ["a", ""], "unused": ["b"], "none": []}"#, #"{"/": "/$(used)/$(none)"}"#)
        let report = Self.report(json)
        #expect(report.findings(.emptyVariableValue).map(\.path) == ["applinks.substitutionVariables.used[1]"])
        #expect(report.findings(.unusedVariable).map(\.path) == ["applinks.substitutionVariables.unused"])
        #expect(report.findings(.emptyVariable).map(\.path) == ["applinks.substitutionVariables.none"])
    }

    @Test func variablesUsedOnlyInDefaultsOrQueryItemsAreUsed() {
        let json =
            ##"{"applinks": {"substitutionVariables": {"a": ["x"], "b": ["y"], "c": ["z"]}, "defaults": {"#": "$(a)"}, "details": [{"appIDs": ["ABCDE12345.com.example.app"], "defaults": {"/": "/$(b)"}, "components": [{"?": {"k": "$(c)"}}]}]}}"##
        #expect(Self.report(json).findings(.unusedVariable).isEmpty)
    }
}
