import AASAKit
import Testing

@Suite("URL splitting")
struct URLParsingTests {
    @Test func keepsPartsAsWritten() throws {
        let url = try AASAURL("HTTPS://User@Example.COM:8443/a%2Fb/c%20d?x=%41&y=+#frag%20ment")
        #expect(url.scheme == "https")
        #expect(url.host == "example.com")
        #expect(url.port == 8443)
        #expect(url.path == "/a%2Fb/c%20d")
        #expect(url.query == "x=%41&y=+")
        #expect(url.fragment == "frag%20ment")
    }

    @Test func distinguishesAbsentFromEmpty() throws {
        let bare = try AASAURL("https://example.com")
        #expect(bare.path == "")
        #expect(bare.query == nil)
        #expect(bare.fragment == nil)
        let empty = try AASAURL("https://example.com/?#")
        #expect(empty.query == "")
        #expect(empty.fragment == "")
        let queryOnly = try AASAURL("https://example.com?def")
        #expect(queryOnly.path == "")
        #expect(queryOnly.query == "def")
    }

    @Test func acceptsPathOnlyAndIPv6() throws {
        let path = try AASAURL("/only/path?q#f")
        #expect(path.host == nil)
        #expect(path.path == "/only/path")
        let ipv6 = try AASAURL("https://[::1]:8080/x")
        #expect(ipv6.host == "::1")
        #expect(ipv6.port == 8080)
    }

    @Test(arguments: ["example.com/path", "https:example.com", "https://", "https://host:99999/", "https://host:+1/", "https://[::1/", "https://a/\u{01}", ""])
    func rejectsWhatIsNotAWebURL(text: String) {
        #expect(throws: AASAURLError.self) { try AASAURL(text) }
    }

    @Test func matcherReportsURLErrors() throws {
        let matcher = try Fixtures.matcher(Fixtures.rowhni)
        #expect(throws: AASAURLError.self) { try matcher.match("not a url") }
    }

    @Test func domainOptionComparesHostAndPort() throws {
        let matcher = try Fixtures.matcher(Fixtures.rowhni)
        #expect(try matcher.decision("https://ROWHNI.com./addfriend", domain: "rowhni.com") == .match)
        #expect(try matcher.decision("https://rowhni.com:8443/addfriend", domain: "rowhni.com:8443") == .match)
        #expect(try matcher.decision("https://rowhni.com:9000/addfriend", domain: "rowhni.com:8443") == .none)
        #expect(try matcher.decision("https://rowhni.com:8443/addfriend", domain: "rowhni.com") == .none)
        #expect(try matcher.decision("https://www.rowhni.com/addfriend", domain: "rowhni.com") == .none)
        #expect(try matcher.decision("/addfriend", domain: "rowhni.com") == .match)
    }
}
