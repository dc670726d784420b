import Foundation
import HTTPServing
import TestSupport
import Testing

@testable import LinkhostKit

@Suite("Rendered page cache")
struct PageCacheTests {
    @Test func aCachedPageIsByteForByteTheRenderedOneAndKeysDoNotMix() throws {
        let shared = try SharedServer()
        let first = try shared.get("/addfriend?code=TEST123", host: "rowhni.com", language: "de")
        let again = try shared.get("/addfriend?code=TEST123", host: "rowhni.com", language: "de")
        #expect(first.status == 200 && again.status == 200)
        // The same page, each view with a token of its own.
        #expect(ViewTokens.masked(first.text) == ViewTokens.masked(again.text))
        let tokens = Set(ViewTokens.all(in: first.text) + ViewTokens.all(in: again.text))
        #expect(tokens.count == 2, "\(tokens)")
        #expect(first.header("Cache-Control") == "private, no-store")
        #expect(first.header("Content-Language") == "de" && again.header("Content-Language") == "de")
        // Another language, another target, another status: never served from the wrong entry.
        let english = try shared.get("/addfriend?code=TEST123", host: "rowhni.com", language: "en")
        #expect(english.header("Content-Language") == "en")
        #expect(HTMLProbe(english.text).text(ofFirst: "h1") == "Friend invitation")
        let other = try shared.get("/addfriend?code=OTHER99", host: "rowhni.com", language: "de")
        #expect(HTMLProbe(other.text).attribute("href", ofElementWithID: "open-app").map(ViewTokens.removed) == "rowhni://addfriend?code=OTHER99")
        let broken = try shared.get("/addfriend", host: "rowhni.com", language: "de")
        #expect(broken.status == 400)
        #expect(try shared.get("/addfriend", host: "rowhni.com", language: "de").status == 400)
        // Both hosts of a site: links on the page point to the host asked for.
        let archives = try shared.get("/showthread.php?threadid=1", host: "archives.somethingawful.com")
        let forums = try shared.get("/showthread.php?threadid=1", host: "forums.somethingawful.com")
        #expect(HTMLProbe(archives.text).meta("og:url") == "https://archives.somethingawful.com/showthread.php?threadid=1")
        #expect(HTMLProbe(forums.text).meta("og:url") == "https://forums.somethingawful.com/showthread.php?threadid=1")
    }

    /// U+212A KELVIN SIGN is canonically equivalent to "K": the page cache took a target written
    /// with it for the real link and answered that link with the look-alike's broken-link page,
    /// in either order (the http-request fuzz target's route check;
    /// Fuzz/http-request/regressions/page-cache-canonical-target).
    @Test func aLookAlikeTargetNeverAnswersTheRealLink() throws {
        let server = try LinkhostServer(configuration: try shippedConfiguration())
        let real = "/addfriend?code=KEST123"
        let lookAlike = "/addfriend?code=\u{212A}EST123"
        #expect(real == lookAlike, "the two are equal as Swift strings")
        func status(_ target: String) -> Int { server.answer(HTTPRequest(method: "GET", target: target, headers: ["Host": "rowhni.com"])).status }
        // Each after the other, both ways round.
        for _ in 0..<2 {
            #expect(status(lookAlike) == 400)
            #expect(status(real) == 200)
        }
    }

    @Test func theCacheIsBoundedByEntriesAndBytes() throws {
        let cache = RenderedPageCache(capacity: 10, byteLimit: 1_000_000)
        let page = try PreparedResponse(status: 200, body: Array(repeating: 65, count: 100))
        for index in 0..<100 {
            cache.store(
                .init(page: .prepared(page), kind: .fallback), for: .init(site: "s", host: "h", language: "en", target: "/\(index)"))
        }
        #expect(cache.count <= 10)
        // The newest are kept; an old one is gone.
        #expect(cache.entry(for: .init(site: "s", host: "h", language: "en", target: "/99")) != nil)
        #expect(cache.entry(for: .init(site: "s", host: "h", language: "en", target: "/0")) == nil)
        let big = try PreparedResponse(status: 200, body: Array(repeating: 66, count: 400_000))
        let small = RenderedPageCache(capacity: 1000, byteLimit: 1_000_000)
        for index in 0..<10 {
            small.store(.init(page: .prepared(big), kind: .fallback), for: .init(site: "s", host: "h", language: "en", target: "/\(index)"))
        }
        #expect(small.count <= 4, "at most the byte limit's worth of bodies is held")
        let long = "/" + String(repeating: "x", count: RenderedPageCache.maximumTargetLength)
        small.store(.init(page: .prepared(page), kind: .fallback), for: .init(site: "s", host: "h", language: "en", target: long))
        #expect(small.entry(for: .init(site: "s", host: "h", language: "en", target: long)) == nil)
    }

    /// Admission: a key is admitted at its second miss, and keys do not admit one another.
    @Test func aPageIsAdmittedAtItsSecondRequest() throws {
        let cache = RenderedPageCache()
        let first = RenderedPageCache.Key(site: "s", host: "h", language: "en", target: "/a")
        // Hashes are seeded per process, so a fixed second target shares the first one's slot in
        // one run of 16,384 (where one forgets the other, as documented): pick one that does not.
        let other = try #require(
            (0..<100).lazy.map { RenderedPageCache.Key(site: "s", host: "h", language: "en", target: "/b\($0)") }
                .first { RenderedPageCache.askedOnceSlot(of: $0) != RenderedPageCache.askedOnceSlot(of: first) })
        #expect(!cache.admits(first))
        #expect(!cache.admits(other))
        #expect(cache.admits(first))
        #expect(cache.admits(other))
        #expect(!cache.admits(RenderedPageCache.Key(site: "s", host: "h", language: "de", target: "/a")), "another language is another page")
    }
}
