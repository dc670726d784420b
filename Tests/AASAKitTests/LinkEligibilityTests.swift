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

extension LinkEligibilityTests {
    @Test(arguments: [
        // A domain without a port covers the default https port only.
        ("https://example.com/x", "example.com", AASADecision.match),
        ("https://example.com:443/x", "example.com", .match),
        ("https://example.com:8443/x", "example.com", .none),
        ("https://example.com:80/x", "example.com", .none),
        // A domain with a port covers that port only.
        ("https://example.com:8443/x", "example.com:8443", .match),
        ("https://example.com/x", "example.com:8443", .none),
        ("https://example.com:9000/x", "example.com:8443", .none),
        ("https://example.com/x", "example.com:443", .match),
        ("https://[::1]:8443/x", "[::1]:8443", .match),
        ("https://[::1]/x", "::1", .match),
        ("https://[::1]:8443/x", "::1", .none),
    ])
    func portsFollowTheDomain(url: String, domain: String, expected: AASADecision) throws {
        let result = try Fixtures.matcher(Self.everything).match(url, options: AASAMatchOptions(domain: domain))
        #expect(result.decision == expected)
        if expected == .none {
            guard case .anotherPort = result.refusal else {
                Issue.record("expected a port refusal, got \(String(describing: result.refusal))")
                return
            }
            #expect(result.isOnAnotherHost)
            #expect(result.explanation.contains("port"), "\(result.explanation)")
        }
    }

    @Test func portRefusalSaysWhichPortTheDomainCovers() throws {
        let matcher = try Fixtures.matcher(Self.everything)
        let noPort = try matcher.match("https://example.com:8443/x", options: AASAMatchOptions(domain: "example.com"))
        #expect(noPort.explanation == #"the URL is on port 8443, but the domain "example.com" has no port, which covers only https's default port 443"#)
        #expect(noPort.swcutilVerifyLines() == [#"Input domain "example.com" did not match input URL's domain "example.com:8443"."#])
        let withPort = try matcher.match("https://example.com/x", options: AASAMatchOptions(domain: "example.com:8443"))
        #expect(withPort.explanation == #"the URL is on port 443 (the default), but the domain "example.com:8443" covers only port 8443"#)
    }

    /// Without a domain the file is taken as served for the URL's own host and port.
    @Test func withoutADomainAnyPortIsTheURLsOwn() throws {
        #expect(try Fixtures.matcher(Self.everything).decision("https://example.com:8443/x") == .match)
    }
}
