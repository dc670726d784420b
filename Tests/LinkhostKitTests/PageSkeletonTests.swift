import Foundation
import HTTPServing
import LinkLog
import OrderedJSON
import TestSupport
import Testing

@testable import LinkhostKit

/// Pages are templates rendered once per shape and filled per request (`PageSkeleton`); these hold
/// the filled pages to the template rendered whole with the same values, byte for byte, over every
/// rule, language and device and many random values — hostile ones included.
@Suite("Prepared pages filled per request")
struct PageSkeletonTests {
    static let agents = [UserAgents.iPhone, UserAgents.android, UserAgents.desktopChrome]

    /// Every site of the shipped config (with an Android app on Rowhni) and of the textbook fixture.
    static func sites() throws -> [SiteConfiguration] {
        let shipped = try shippedConfiguration { AndroidFixture.adding(in: $0) }
        let textbook = try shippedConfiguration(from: ProjectPaths.root + "/Tests/Fixtures/textbook.json") {
            $0.setting("server.publicDirectory", to: .string(ProjectPaths.root + "/Public"))
        }
        return shipped.sites + textbook.sites
    }

    /// A value of `length` characters from a mix of letters, digits, URL and HTML specials and
    /// non-ASCII (but no mark that would combine with a special character: the template engine
    /// escapes by grapheme cluster, which `theEscapingIsByteByByte` shows is wrong).
    static func value(_ generator: inout SeededRandom, length: Int) -> String {
        let alphabet = Array("abcXYZ019-_.~ <>&\"'/?#=%+;:éß漢😀")
        return String((0..<length).map { _ in alphabet[generator.next(below: alphabet.count)] })
    }

    /// The targets to try on a site: each rule's examples, and each with random values in place.
    static func targets(for site: SiteConfiguration, _ generator: inout SeededRandom) -> [String] {
        var targets = ["/no/such/page", "/"]
        for rule in site.router.rules {
            targets += rule.examples
            for _ in 0..<8 {
                var values: [String: String] = [:]
                for parameter in rule.parameters { values[parameter.name] = value(&generator, length: generator.next(below: 12)) }
                let extra = [("utm_source", value(&generator, length: 6)), ("utm_campaign", value(&generator, length: 9)), ("noseen", "1")]
                if let link = try? rule.link(values: values, extraQuery: extra) { targets.append(link) }
                // Broken links too: the raw values, unencoded where a URL allows it.
                targets.append(
                    rule.path.aasaPattern.replacingOccurrences(of: "*", with: "x") + "?"
                        + rule.parameters.map { "\($0.name)=\(values[$0.name] ?? "")" }.joined(separator: "&"))
            }
        }
        return targets
    }

    @Test func aFilledPageIsTheWholeRenderByteForByte() throws {
        var generator = SeededRandom(seed: 20_261_125)
        var compared = 0
        for site in try Self.sites() {
            let pages = try SitePages(site: site, publicDirectory: ProjectPaths.root + "/Public", publicScheme: "https")
            let classes = ClientClassCache()
            for target in Self.targets(for: site, &generator) {
                for agent in Self.agents {
                    for language in site.languages {
                        let request = HTTPRequest(
                            method: "GET", target: target, headers: ["Host": site.primaryHost, "User-Agent": agent, "Accept-Language": language])
                        let served = ServedRequest(endpoint: .page, kind: .notFound, site: nil)
                        let answer = pages.response(for: request, served: served, classes: classes)
                        let filled = answer.response
                        let variant = PageVariant.choose(
                            clientClass: classes.classify(agent), userAgent: agent, siteHasAndroidApp: site.app.android != nil)
                        // A person's view of a link carries its own token: the whole render gets the same one.
                        let token = answer.annotation.viewToken
                        #expect((token != nil) == (filled.status == 200), "\(site.id) \(target): a link's page, and only that, has a token")
                        let whole = pages.renderedWhole(for: request, language: language, variant: variant, token: token)
                        #expect(filled.status == whole.status, "\(site.id) \(target)")
                        #expect(filled.bodyText == whole.body, "\(site.id) \(target) \(agent) \(language)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 500)
    }

    /// A quote followed by a combining mark is one grapheme cluster; the template engine escapes
    /// by cluster and let it through, which ends an attribute early. Filled values are escaped byte
    /// by byte, so the quote never survives.
    @Test func theEscapingIsByteByByte() throws {
        let site = try #require(try Self.sites().first { $0.id == "mustc" })
        let pages = try SitePages(site: site, publicDirectory: ProjectPaths.root + "/Public", publicScheme: "https")
        let hostile = "%22%CC%81%20onmouseover%3Dx%20%3C%CC%81script"  // "\u{301} onmouseover=x <\u{301}script
        let request = HTTPRequest(method: "GET", target: "/movie/\(hostile)", headers: ["Host": site.primaryHost, "User-Agent": UserAgents.iPhone])
        let page = pages.response(for: request, served: ServedRequest(endpoint: .page, kind: .notFound), classes: ClientClassCache()).response
        #expect(page.status == 200)
        let mark = "\u{301}"
        let escapedValue = "&quot;" + mark + " onmouseover=x &lt;" + mark + "script"
        let rawQuote = "\"" + mark
        #expect(page.bodyText.contains(escapedValue), "\(page.bodyText)")
        #expect(!page.bodyText.contains(rawQuote))
        // The template engine itself (a whole render) lets the quote through: what pages did before.
        let whole = pages.renderedWhole(for: request, language: site.defaultLanguage, variant: .standard)
        #expect(whole.body.contains(rawQuote))
        let escaped = HTMLEscaping.escape("a" + rawQuote + "<'>&")
        #expect(escaped == "a&quot;" + mark + "&lt;&#39;&gt;&amp;")
    }

    /// A computer's view of a link draws its QR code with its own token, so that page is never
    /// kept; its broken-link and not-found pages carry no token and are.
    @Test func aComputersLinkPageIsMadePerViewAndItsOtherPagesAreKept() throws {
        let site = try #require(try Self.sites().first { $0.id == "rowhni" })
        let pages = try SitePages(site: site, publicDirectory: ProjectPaths.root + "/Public", publicScheme: "https")
        let classes = ClientClassCache()
        func answer(_ target: String) -> AnnotatedResponse<ServedRequest> {
            let request = HTTPRequest(method: "GET", target: target, headers: ["Host": site.primaryHost, "User-Agent": UserAgents.desktopChrome])
            return pages.response(for: request, served: ServedRequest(endpoint: .page, kind: .notFound), classes: classes)
        }
        let first = answer("/addfriend?code=ABC123")
        let second = answer("/addfriend?code=ABC123")
        #expect(first.annotation.viewToken != second.annotation.viewToken)
        #expect(first.response.bodyText != second.response.bodyText, "each view's QR code holds its own token")
        #expect(pages.cachedPageCount == 0)
        // A page is kept from its second request on, and answered from the cache from its third.
        let missing = answer("/nothing-here").response
        #expect(pages.cachedPageCount == 0, "a page asked for once is not kept")
        let missingAgain = answer("/nothing-here").response
        let missingThird = answer("/nothing-here").response
        #expect(missing.status == 404 && missingAgain.status == 404)
        #expect(missing.prepared !== missingAgain.prepared, "the second one is made again")
        #expect(missingAgain.prepared != nil && missingAgain.prepared === missingThird.prepared, "the third one comes from the cache")
        #expect(answer("/addfriend").response.status == 400)
        #expect(answer("/addfriend").response.status == 400)
        #expect(pages.cachedPageCount == 2)
    }

    /// A skeleton is made once per shape: a thousand new links of one rule, one device and one
    /// language make one.
    @Test func newLinksOfOneShapeShareOneSkeleton() throws {
        let site = try #require(try Self.sites().first { $0.id == "awful" })
        let pages = try SitePages(site: site, publicDirectory: ProjectPaths.root + "/Public", publicScheme: "https")
        let classes = ClientClassCache()
        for thread in 0..<1000 {
            let request = HTTPRequest(
                method: "GET", target: "/showthread.php?threadid=\(thread + 1)", headers: ["Host": site.primaryHost, "User-Agent": UserAgents.iPhone])
            let page = pages.response(for: request, served: ServedRequest(endpoint: .page, kind: .notFound), classes: classes).response
            #expect(page.bodyText.contains("awful://threads/\(thread + 1)?lh_view="))
        }
        #expect(pages.skeletonCount == 1)
        #expect(pages.cachedPageCount == 0, "links asked for once are not kept")
    }

    /// The escaping scans eight bytes at a time: every character that needs escaping, at every
    /// offset around those words (and beside multi-byte characters), comes out as a plain
    /// byte-by-byte reading writes it.
    @Test func escapingFindsEveryCharacterAtEveryOffset() {
        func plain(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&#39;"
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        for special in ["&", "<", ">", "\"", "'", "é", "=", ";", "?"] {
            for length in 0...20 {
                for offset in 0...length {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: offset))
                    #expect(HTMLEscaping.escape(text) == plain(text), "\(special) at \(offset) of \(length)")
                }
            }
        }
        let mixed = "https://example.com/a?b=1&c='2'<x>\"日本\"&amp;" + String(repeating: "z", count: 17) + "&"
        #expect(HTMLEscaping.escape(mixed) == plain(mixed))
    }
}
