import LinkhostKit
import Testing

/// Problems name the place in the file as written, also after something before it did not read.
@Suite("Configuration: places as written")
struct NumberingConfigurationTests {
    /// The uniqueness check counts every site in the file, also one that had problems of its own.
    @Test func sitesAreNumberedByTheirPlaceInTheFileAfterOneFailed() {
        let broken =
            exampleSite
            .replacingOccurrences(of: "\"id\": \"example\"", with: "\"id\": \"broken\"")
            .replacingOccurrences(of: "[\"example.com\"]", with: "[\"broken.com\"]")
            .replacingOccurrences(of: "ABCDE12345.com.example.app", with: "nodot")
        let second = exampleSite.replacingOccurrences(of: "\"id\": \"example\"", with: "\"id\": \"second\"")
        let found = problems(in: configText(sites: [broken, exampleSite, second]))
        #expect(found.map(\.path.description) == ["sites[0].app.appIDs[0]", "sites[2].hosts[0]"])
        #expect(found.last?.problem == "\"example.com\" is also listed at sites[1].hosts[0]")
    }

    @Test func aSiteWithProblemsStillClaimsItsIDAndHosts() {
        let broken = exampleSite.replacingOccurrences(of: "ABCDE12345.com.example.app", with: "nodot")
        let found = problems(in: configText(sites: [broken, exampleSite]))
        #expect(found.first?.path.description == "sites[0].app.appIDs[0]")
        #expect(
            found.dropFirst().map(\.description) == [
                "sites[1].id: the id \"example\" is also used by sites[0]. Fix: give every site its own id",
                "sites[1].hosts[0]: \"example.com\" is also listed at sites[0].hosts[0]. Fix: list each host under one site only; one host serves one AASA file",
            ])
    }

    @Test func anExampleIsNamedByItsRulesPlaceAfterAnEarlierRuleFailed() {
        let broken = #"{"name": "broken", "path": "/b", "app": "example://b"}"#
        let site =
            exampleSite
            .replacingOccurrences(of: #""links": ["#, with: #""links": [\#(broken), "#)
            .replacingOccurrences(of: #""examples": ["/x/1"]"#, with: #""examples": ["/y/1"]"#)
        let found = problems(in: configText(sites: [site])).map(\.description)
        #expect(
            found == [
                "sites[0].links[0].title: \"title\" is missing. Fix: add \"title\": { \"en\": \"…\" }",
                "sites[0].links[1].examples[0]: \"/y/1\" matches no rule. Fix: correct the example or the rule's path",
            ])
    }
}
