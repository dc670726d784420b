import AASAKit
import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// The one duplicate-key rule (`JSONParser.DuplicateKeyPolicy`): the config refuses a repeated key
/// and names its JSON path; an AASA file is read as Apple reads it, the last occurrence winning,
/// and `linkhost check` warns about it.
@Suite("Duplicate JSON keys")
struct DuplicateKeyRuleTests {
    @Test func theConfigRefusesARepeatedKeyAndNamesItsPath() {
        let nested = configText(sites: [exampleSite.replacingOccurrences(of: #""id": "example","#, with: #""id": "example", "id": "other","#)])
        let found = problems(in: nested)
        #expect(found.count == 1)
        #expect(found.first?.path.description == "sites[0].id")
        #expect(found.first?.problem.contains("\"id\" appears twice") == true)
        let topLevel = problems(in: #"{"sites": [], "sites": []}"#)
        #expect(topLevel.first?.path.description == "sites")
    }

    @Test func anAASAFileWithRepeatedKeysIsServedReadWithTheLastOneAndWarnedAbout() throws {
        let folder = try TemporaryDirectory()
        // The first "/" would match nothing of the site; Apple's parser keeps the second.
        try folder.write(
            "aasa.json",
            """
            {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/nothing", "/": "/x/?*"}]}]}}
            """)
        let site = exampleSite.replacingOccurrences(of: #""links": ["#, with: #""aasa": {"file": "aasa.json"}, "links": ["#)
        let config = try folder.write("config.json", configText(sites: [site], server: #"{"publicDirectory": "\#(ProjectPaths.root)/Public"}"#))

        let configuration = try ConfigurationLoader.load(path: config)
        let explanation = try LinkExplanation.explain("https://example.com/x/1", configuration: configuration)
        #expect(explanation.decision == .match)
        #expect(try LinkExplanation.explain("https://example.com/nothing", configuration: configuration).decision == .none)

        let findings = LinkhostCheck.check(configPath: config)
        let duplicate = try #require(findings.first { $0.code == AASAValidationCode.duplicateKey.rawValue })
        #expect(duplicate.severity == .warning)
        #expect(duplicate.site == "example")
        #expect(duplicate.path.hasSuffix(#"applinks.details[0].components[0]["/"]"#))
        #expect(!findings.contains { $0.severity == .error })
    }
}
