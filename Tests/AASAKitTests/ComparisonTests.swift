import AASAKit
import Testing

/// How a copy of an AASA file (Apple's CDN's) differs from the file expected, in the terms iOS
/// acts on: apps per section, and per app its rules in the order they are tried.
@Suite("Comparing AASA files")
struct ComparisonTests {
    static let app = "ABCDE12345.com.example.app"
    static let other = "ABCDE12345.com.example.other"

    private func compare(_ expected: String, _ found: String) throws -> AASAComparison {
        AASAComparison(expected: try Fixtures.document(expected), found: try Fixtures.document(found))
    }

    private func file(apps: [String] = [app], components: [String], webcredentials: [String]? = nil) -> String {
        let appIDs = apps.map { "\"\($0)\"" }.joined(separator: ", ")
        let web = webcredentials.map { list in ", \"webcredentials\": {\"apps\": [\(list.map { "\"\($0)\"" }.joined(separator: ", "))]}" } ?? ""
        return "{\"applinks\": {\"details\": [{\"appIDs\": [\(appIDs)], \"components\": [\(components.joined(separator: ", "))]}]}\(web)}"
    }

    @Test func theSameJSONLaidOutDifferentlyIsTheSameFile() throws {
        let expected = file(components: [#"{"/": "/a", "comment": "A"}"#, #"{"/": "/b"}"#])
        let found =
            #"{ "applinks" : { "details" : [ { "components" : [ { "comment" : "A", "/" : "/a" }, { "/" : "/b" } ], "appIDs" : [ "ABCDE12345.com.example.app" ] } ] } }"#
        let comparison = try compare(expected, found)
        #expect(comparison.isEquivalent)
        #expect(comparison.differences.isEmpty)
    }

    @Test func aRuleAddedToTheServedFileIsMissingFromTheCopy() throws {
        let comparison = try compare(file(components: [#"{"/": "/a"}"#, #"{"/": "/new"}"#]), file(components: [#"{"/": "/a"}"#]))
        #expect(!comparison.isEquivalent)
        #expect(comparison.differences == [.rulesMissing(appID: Self.app, rules: [#"{"/":"/new"}"#])])
    }

    @Test func aRuleTheServedFileDroppedIsUnexpectedInTheCopy() throws {
        let comparison = try compare(file(components: [#"{"/": "/a"}"#]), file(components: [#"{"/": "/a"}"#, #"{"/": "/old", "exclude": true}"#]))
        #expect(comparison.differences == [.rulesUnexpected(appID: Self.app, rules: [#"{"/":"/old","exclude":true}"#])])
    }

    @Test func aChangedRuleIsOneMissingAndOneUnexpected() throws {
        let comparison = try compare(file(components: [#"{"/": "/a", "?": {"code": "?*"}}"#]), file(components: [#"{"/": "/a"}"#]))
        #expect(
            comparison.differences == [
                .rulesMissing(appID: Self.app, rules: [#"{"/":"/a","?":{"code":"?*"}}"#]), .rulesUnexpected(appID: Self.app, rules: [#"{"/":"/a"}"#]),
            ])
    }

    @Test func swappedRulesAreReorderedSinceTheFirstMatchDecides() throws {
        let comparison = try compare(file(components: [#"{"/": "/a"}"#, #"{"/": "/b"}"#]), file(components: [#"{"/": "/b"}"#, #"{"/": "/a"}"#]))
        #expect(comparison.differences == [.rulesReordered(appID: Self.app)])
    }

    @Test func appsOnlyOneFileNamesAreReportedPerSection() throws {
        let expected = file(apps: [Self.app, Self.other], components: [#"{"/": "/a"}"#], webcredentials: [Self.app])
        let found = file(apps: [Self.app], components: [#"{"/": "/a"}"#], webcredentials: [Self.other])
        let comparison = try compare(expected, found)
        #expect(
            comparison.differences == [
                .appMissing(section: "applinks", appID: Self.other),
                .appMissing(section: "webcredentials", appID: Self.app),
                .appUnexpected(section: "webcredentials", appID: Self.other),
            ])
    }

    @Test func aRuleMovedToAnotherEntryForTheSameAppIsNoDifferenceInWhatOpens() throws {
        let expected = file(components: [#"{"/": "/a"}"#, #"{"/": "/b"}"#])
        let found = """
            {"applinks": {"details": [{"appIDs": ["\(Self.app)"], "components": [{"/": "/a"}]},
                                      {"appIDs": ["\(Self.app)"], "components": [{"/": "/b"}]}]}}
            """
        let comparison = try compare(expected, found)
        #expect(!comparison.isEquivalent, "the files differ")
        #expect(comparison.differences == [.sectionDiffers(path: "applinks")], "but no app gets other rules")
    }

    @Test func legacyPathsAndDefaultsAreRulesToo() throws {
        let expected = """
            {"applinks": {"apps": [], "details": [{"appID": "\(Self.app)", "defaults": {"caseSensitive": false}, "paths": ["/a/*", "NOT /a/b"]}]}}
            """
        let found = """
            {"applinks": {"apps": [], "details": [{"appID": "\(Self.app)", "paths": ["/a/*"]}]}}
            """
        let comparison = try compare(expected, found)
        #expect(comparison.differences == [.rulesMissing(appID: Self.app, rules: [#"defaults {"caseSensitive":false}"#, #""NOT /a/b""#])])
    }

    @Test func domainDefaultsVariablesAndUnknownKeysAreNamedByPath() throws {
        let expected = #"{"applinks": {"defaults": {"percentEncoded": false}, "details": []}, "extra": 1}"#
        let found = #"{"applinks": {"substitutionVariables": {"x": ["1"]}, "details": []}, "extra": 2}"#
        let comparison = try compare(expected, found)
        #expect(
            comparison.differences == [
                .sectionDiffers(path: "applinks.defaults"), .sectionDiffers(path: "applinks.substitutionVariables"), .sectionDiffers(path: "extra"),
            ])
        #expect(comparison.differences.map(\.code) == ["section-differs", "section-differs", "section-differs"])
    }

    @Test func aRuleWrittenTwiceInOneFileAndOnceInTheOtherLeavesOne() throws {
        let comparison = try compare(file(components: [#"{"/": "/a"}"#, #"{"/": "/a"}"#]), file(components: [#"{"/": "/a"}"#]))
        #expect(comparison.differences == [.rulesMissing(appID: Self.app, rules: [#"{"/":"/a"}"#])])
    }
}
