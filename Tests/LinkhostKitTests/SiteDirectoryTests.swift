import HTTPServer
import LinkhostKit
import Testing

@Suite("Host selection")
struct SiteDirectoryTests {
    let directory = SiteDirectory(entries: [("rowhni.com", "rowhni"), ("forums.somethingawful.com", "awful"), ("*.example.com", "wild"), ("*.deep.example.com", "deeper")], fallback: String?.none)

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
