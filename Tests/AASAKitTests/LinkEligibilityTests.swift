import AASAKit
import Testing

/// Which URLs a file can speak for at all: only https links on its own domain reach the rules.
@Suite("URLs a file can decide")
struct LinkEligibilityTests {
    /// Every path of the file matches, so only the refusal can make a URL `none`.
    static let everything = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "*"}]}]}}"#

    @Test(arguments: ["ftp://example.com/x", "http://example.com/x", "HTTP://example.com/x", "wss://example.com/x", "myapp://example.com/x"])
    func onlyHTTPSLinksAreUniversalLinks(url: String) throws {
        let result = try Fixtures.matcher(Self.everything).match(url, options: AASAMatchOptions(domain: "example.com"))
        #expect(result.decision == .none)
        #expect(result.rule == nil)
        #expect(result.appDecisions.isEmpty)
        guard case .notHTTPS(let scheme) = result.refusal else {
            Issue.record("expected a scheme refusal, got \(String(describing: result.refusal))")
            return
        }
        #expect(scheme == url.prefix { $0 != ":" }.lowercased())
        #expect(result.explanation.contains("https only") || result.explanation.contains("https URLs only"), "\(result.explanation)")
        #expect(result.swcutilVerifyLines() == ["Input JSON did not match input URL."])
    }

    @Test func httpSaysTheBrowserOpensIt() throws {
        let result = try Fixtures.matcher(Self.everything).match("http://example.com/x")
        #expect(result.explanation.contains("iOS opens an http link in the browser"))
    }

    @Test(arguments: ["https://example.com/x", "HTTPS://Example.com/x", "/x"])
    func httpsAndPathOnlyURLsReachTheRules(url: String) throws {
        let result = try Fixtures.matcher(Self.everything).match(url, options: AASAMatchOptions(domain: "example.com"))
        #expect(result.decision == .match)
        #expect(result.refusal == nil)
    }
}
