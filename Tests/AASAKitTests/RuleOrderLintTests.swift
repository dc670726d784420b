import AASAKit
import Testing

/// Lints about the order of an entry's rules that the per-code cases do not cover in detail.
@Suite("Rule order lints")
struct RuleOrderLintTests {
    static func report(_ json: String) -> AASAValidationReport {
        AASAValidator().validate(bytes: Array(json.utf8))
    }

    static func legacy(_ paths: String) -> String {
        #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.app", "paths": [\#(paths)]}]}}"#
    }

    @Test(arguments: [
        // Before every opening rule, or the only rule: every link is off.
        (ValidatorTests.component(#"{"/": "*", "exclude": true}, {"/": "/a"}, {"/": "/b"}"#), AASAValidationCode.wholeSiteExclusion, "components[0]"),
        (ValidatorTests.component(#"{"/": "/*", "exclude": true}"#), .wholeSiteExclusion, "components[0]"),
        (ValidatorTests.component(#"{"exclude": true}, {"/": "/a"}"#), .wholeSiteExclusion, "components[0]"),
        (
            ValidatorTests.component(##"{"/": "/x", "exclude": true}, {"/": "*", "#": "*", "exclude": true}, {"/": "/a"}"##), .wholeSiteExclusion,
            "components[1]"
        ),
        (legacy(#""NOT /*", "/a""#), .wholeSiteExclusion, "paths[0]"),
        (legacy(#""NOT *", "/a""#), .wholeSiteExclusion, "paths[0]"),
        // After some opening rules: the rest are dead.
        (ValidatorTests.component(#"{"/": "/a"}, {"/": "*", "exclude": true}, {"/": "/b"}"#), .wholeSiteExclusionShadows, "components[1]"),
        (legacy(#""/a", "NOT /*", "/b""#), .wholeSiteExclusionShadows, "paths[1]"),
    ])
    func wholeSiteExclusions(json: String, code: AASAValidationCode, rule: String) throws {
        let report = Self.report(json)
        let finding = try #require(report.findings(code).first, "\(report.findings)")
        #expect(finding.path.hasSuffix(rule))
        let index = rule.filter(\.isNumber)
        #expect(finding.message.contains("rule \(index) of this entry excludes every URL"), "\(finding.message)")
        #expect(finding.fix.contains("exclude") || finding.fix.contains("NOT /admin/*"))
        // The dead rules behind it are named by this finding, not once more each as shadowed.
        #expect(report.findings(.shadowedRule).isEmpty, "\(report.findings)")
    }

    @Test(arguments: [
        // Last, after every opening rule: it only ends the list.
        ValidatorTests.component(#"{"/": "/a"}, {"/": "*", "exclude": true}"#),
        // Constrained exclusions are ordinary.
        ValidatorTests.component(#"{"/": "*", "?": {"preview": "1"}, "exclude": true}, {"/": "/a"}"#),
        ValidatorTests.component(##"{"#": "no_universal_links", "exclude": true}, {"/": "/a"}"##),
        legacy(#""NOT /private/*", "/a""#),
    ])
    func narrowOrFinalExclusionsAreNotReported(json: String) {
        let report = Self.report(json)
        #expect(report.findings(.wholeSiteExclusion).isEmpty)
        #expect(report.findings(.wholeSiteExclusionShadows).isEmpty)
    }

    @Test func theMessageCountsTheDeadRulesAndNamesTheApps() throws {
        let report = Self.report(ValidatorTests.component(#"{"/": "*", "exclude": true}, {"/": "/a"}, {"/": "/b"}, {"/": "/c"}, {"/": "/d"}"#))
        let finding = try #require(report.findings(.wholeSiteExclusion).first)
        #expect(finding.severity == .error)
        #expect(finding.message.contains("no link opens ABCDE12345.com.example.app"))
        #expect(finding.message.contains("the 4 rules after it that would open the app"))
        #expect(finding.message.contains("and 1 more"))
    }

    @Test(arguments: [
        (ValidatorTests.component(#"{"/": "*"}, {"/": "/a"}, {"/": "/b", "exclude": true}, {"/": "/c"}"#), "components[0]", 3),
        (ValidatorTests.component(##"{"/": "/x"}, {"/": "/*", "#": "*"}, {"/": "/a"}"##), "components[1]", 1),
        (legacy(#""/a", "*", "/b", "NOT /c""#), "paths[1]", 2),
        // An exclusion of every URL after the catch-all is one of its dead rules, not an AASA026 of its own.
        (ValidatorTests.component(#"{"/": "*"}, {"/": "*", "exclude": true}, {"/": "/a"}"#), "components[0]", 2),
    ])
    func rulesAfterACatchAllAreReportedOnceOnIt(json: String, rule: String, dead: Int) throws {
        let report = Self.report(json)
        let shadowed = report.findings(.shadowedRule)
        #expect(shadowed.count == 1, "\(shadowed)")
        let finding = try #require(shadowed.first)
        #expect(finding.path == "applinks.details[0].\(rule)")
        let index = rule.filter(\.isNumber)
        #expect(finding.message.contains("rule \(index) of this entry"), "\(finding.message)")
        #expect(finding.message.contains("the \(dead) \(dead == 1 ? "rule" : "rules") after it"), "\(finding.message)")
        #expect(finding.message.contains(dead == 1 ? "never applies" : "never apply"), "\(finding.message)")
        #expect(finding.fix.hasPrefix("move the rule"), "\(finding.fix)")
        #expect(report.findings(.wholeSiteCatchAll).map(\.path) == ["applinks.details[0].\(rule)"])
        #expect(report.findings(.wholeSiteExclusion).isEmpty)
        #expect(report.findings(.wholeSiteExclusionShadows).isEmpty)
    }

    @Test func rulesBeforeACatchAllAreStillComparedOneByOne() {
        let report = Self.report(ValidatorTests.component(#"{"/": "/a/*"}, {"/": "/a/b"}, {"/": "*"}, {"/": "/c"}, {"/": "/d"}"#))
        #expect(report.findings(.shadowedRule).map(\.path).sorted() == ["applinks.details[0].components[1]", "applinks.details[0].components[2]"])
        let catchAll = report.findings(.shadowedRule).first { $0.path.hasSuffix("components[2]") }
        #expect(catchAll?.message.contains("(applinks.details[0].components[3], applinks.details[0].components[4])") == true, "\(String(describing: catchAll))")
    }
}
