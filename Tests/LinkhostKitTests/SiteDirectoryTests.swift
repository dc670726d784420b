import HTTPServing
import TestSupport
import Testing

@testable import LinkhostKit

@Suite("Host selection")
struct SiteDirectoryTests {
    let directory = SiteDirectory(
        entries: [("rowhni.com", "rowhni"), ("forums.somethingawful.com", "awful"), ("*.example.com", "wild"), ("*.deep.example.com", "deeper")],
        fallback: String?.none)

    @Test(arguments: [
        ("rowhni.com", "rowhni"),
        ("ROWHNI.com:8080", "rowhni"),
        ("rowhni.com.", "rowhni"),
        ("forums.somethingawful.com", "awful"),
        ("a.example.com", "wild"),
        ("x.deep.example.com", "deeper"),
    ])
    func picksTheSite(host: String, site: String) {
        #expect(directory.site(forHost: HTTPRequest.normalizedHostName(host)) == site)
    }

    @Test(arguments: ["example.com", "www.rowhni.com", "somethingawful.com", "evilrowhni.com", "notexample.com"])
    func unlistedHostsFallThrough(host: String) {
        #expect(directory.site(forHost: host) == nil)
        let withDefault = SiteDirectory(entries: [("rowhni.com", "rowhni")], fallback: "rowhni")
        #expect(withDefault.site(forHost: host) == "rowhni")
    }

    /// Up to `listedHosts` exact hosts are compared one by one, more are looked up by hash: both
    /// ways pick the same site for every host, listed or not.
    @Test func aLongListPicksWhatAShortOneDoes() {
        let hosts = (1...(SiteDirectory<String>.listedHosts + 4)).map { "site\($0).example.org" }
        let many = SiteDirectory(entries: hosts.map { ($0, $0) }, fallback: "fallback")
        for host in hosts + ["site0.example.org", "example.org", "site1.example.org.evil"] {
            let few = SiteDirectory(entries: hosts.filter { $0 == host }.map { ($0, $0) }, fallback: "fallback")
            #expect(many.site(forHost: host) == few.site(forHost: host), "\(host)")
            #expect(many.site(forHost: host) == (hosts.contains(host) ? host : "fallback"))
        }
    }

    /// One wildcard rule: the directory that picks a request's site and `SiteConfiguration.lists`
    /// (absolute URLs, redirects, `linkhost link`) agree on every host.
    @Test(arguments: [
        ("example.com", true), ("a.wild.test", true), ("x.y.wild.test", true), ("wild.test", false),
        ("notwild.test", false), (".wild.test", false), ("a.example.com", false), ("wild.test.evil", false),
    ])
    func siteListingAgreesWithSiteSelection(host: String, listed: Bool) throws {
        let site = exampleSite.replacingOccurrences(of: #""hosts": ["example.com"]"#, with: #""hosts": ["example.com", "*.wild.test"]"#)
        let configuration = try ConfigurationLoader.parse(Array(configText(sites: [site]).utf8), baseDirectory: ProjectPaths.root)
        let example = try #require(configuration.site(id: "example"))
        let directory = SiteDirectory(entries: example.hosts.map { ($0, example.id) }, fallback: String?.none)
        #expect(example.lists(host: host) == listed)
        #expect((directory.site(forHost: host) != nil) == listed)
    }

    /// Found by the `http-request` fuzz target: a Host header is any bytes, and one that merely
    /// ended in a wildcard's suffix (the first, with NULs, spaces and slashes) counted as a
    /// subdomain, so its page wrote it into the absolute links, NUL and all. Only labels of
    /// letters, digits and hyphens make a subdomain; such a host falls through.
    @Test(arguments: [
        "st=.g/robots.txtjs \0\0\0/http\u{7}/0.1t /sta a.wild.test", "evil.test/x.wild.test", "evil.test#.wild.test", "a b.wild.test",
        "a..wild.test", "..wild.test", "a<b.wild.test", "\u{E9}.wild.test",
    ])
    func onlyHostNameLabelsLieUnderAWildcard(host: String) throws {
        let site = exampleSite.replacingOccurrences(of: #""hosts": ["example.com"]"#, with: #""hosts": ["example.com", "*.wild.test"]"#)
        let configuration = try ConfigurationLoader.parse(Array(configText(sites: [site]).utf8), baseDirectory: ProjectPaths.root)
        let example = try #require(configuration.site(id: "example"))
        #expect(HTTPRequest.normalizedHostName(host) == host)
        #expect(!example.lists(host: host))
        #expect(SiteDirectory(entries: example.hosts.map { ($0, example.id) }, fallback: String?.none).site(forHost: host) == nil)
        #expect(example.lists(host: "a-1.b2.wild.test"))
    }

    @Test func aMissingHostUsesTheFallback() {
        #expect(directory.site(forHost: nil) == nil)
        #expect(SiteDirectory(entries: [("a.com", 1)], fallback: 2).site(forHost: nil) == 2)
    }
}

@Suite("Entity tags")
struct EntityTagTests {
    @Test func tagsAreQuotedStableAndContentDependent() {
        let a = EntityTag.strong(for: Array("one".utf8))
        #expect(a.hasPrefix("\"") && a.hasSuffix("\""))
        #expect(a == EntityTag.strong(for: Array("one".utf8)))
        #expect(a != EntityTag.strong(for: Array("two".utf8)))
    }

    @Test func ifNoneMatchUsesWeakComparison() {
        #expect(EntityTag.ifNoneMatch("\"x\"", matches: "\"x\""))
        #expect(EntityTag.ifNoneMatch("W/\"x\"", matches: "\"x\""))
        #expect(EntityTag.ifNoneMatch(" \"a\" ,  \"x\" ", matches: "\"x\""))
        #expect(EntityTag.ifNoneMatch("*", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("\"y\"", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("x", matches: "\"x\""))
        #expect(!EntityTag.ifNoneMatch("", matches: "\"x\""))
    }
}
