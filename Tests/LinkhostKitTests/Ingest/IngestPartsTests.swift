import LinkRules
import OrderedJSON
import TestSupport
import Testing

@testable import LinkhostKit

/// The pieces behind the report endpoints: keys, the rate limiter and reading app URLs back.
@Suite("Ingest keys, rate limits and app URLs")
struct IngestPartsTests {
    @Test func aSitesOwnVariableWinsOverTheSharedOneAndEmptyMeansUnset() throws {
        let environment = [
            "LINKHOST_INGEST_KEY_ROWHNI": "rowhni-only-key-0123456789",
            "LINKHOST_INGEST_KEY": "shared-key-0123456789abcdef",
            "LINKHOST_INGEST_KEY_MY_SITE": "",
        ]
        let keys = try IngestKeys.fromEnvironment(environment, siteIDs: ["rowhni", "awful", "my-site"])
        #expect(keys.accepts("Bearer rowhni-only-key-0123456789", forSite: "rowhni"))
        #expect(!keys.accepts("Bearer shared-key-0123456789abcdef", forSite: "rowhni"))
        #expect(keys.accepts("bearer shared-key-0123456789abcdef", forSite: "awful"))
        #expect(keys.accepts("Bearer shared-key-0123456789abcdef", forSite: "my-site"))
        #expect(IngestKeys.variable(forSite: "my-site") == "LINKHOST_INGEST_KEY_MY_SITE")
        let none = try IngestKeys.fromEnvironment([:], siteIDs: ["rowhni"])
        #expect(!none.isEnabled(forSite: "rowhni"))
        #expect(!none.accepts("Bearer anything-at-all-0123456789", forSite: "rowhni"))
    }

    @Test func keysAreNeverPrintedAndShortOnesAreRefusedByName() throws {
        let keys = try IngestKeys(["rowhni": "a-long-enough-secret-key"])
        #expect(!"\(keys)".contains("secret"))
        let error = #expect(throws: IngestKeyError.self) { _ = try IngestKeys.fromEnvironment(["LINKHOST_INGEST_KEY": "short-one"], siteIDs: ["rowhni"]) }
        #expect(error?.description.contains("LINKHOST_INGEST_KEY holds 9 characters") == true)
        #expect(error?.description.contains("short-one") == false)
    }

    @Test func onlyTheWholeKeyIsAccepted() throws {
        let keys = try IngestKeys(["s": "0123456789abcdef"])
        for presented in ["Bearer 0123456789abcdef", "Bearer 0123456789abcde", "Bearer 0123456789abcdefX", "Bearer 1123456789abcdef", "0123456789abcdef", ""] {
            #expect(keys.accepts(presented, forSite: "s") == (presented == "Bearer 0123456789abcdef"), "\(presented)")
        }
        #expect(ConstantTimeComparison.equal(Array(repeating: 0, count: 256), []) == false)
    }

    @Test func theBucketRefillsAtItsRateAndSaysHowLongToWait() {
        let limiter = TokenBucketLimiter()
        let limit = IngestRateLimit(burst: 2, perSecond: 4)
        let start = ContinuousClock.now
        let later = start + .seconds(10)
        #expect(limiter.take("a", limit: limit, now: later) == .allowed)
        #expect(limiter.take("a", limit: limit, now: later) == .allowed)
        #expect(limiter.take("a", limit: limit, now: later) == .limited(retryAfterSeconds: 1))
        // Another network has a bucket of its own.
        #expect(limiter.take("b", limit: limit, now: later) == .allowed)
        // A quarter second later one token is back (4 a second), and only one.
        #expect(limiter.take("a", limit: limit, now: later + .milliseconds(250)) == .allowed)
        #expect(limiter.take("a", limit: limit, now: later + .milliseconds(250)) != .allowed)
        let slow = IngestRateLimit(burst: 1, perSecond: 1)
        #expect(limiter.take("c", limit: slow, now: start) == .allowed)
        #expect(limiter.take("c", limit: slow, now: start + .milliseconds(100)) == .limited(retryAfterSeconds: 1))
    }

    @Test func theTableOfBucketsStaysBounded() {
        let limiter = TokenBucketLimiter(maximumKeys: 100)
        let limit = IngestRateLimit(burst: 5, perSecond: 1)
        let now = ContinuousClock.now
        for index in 0..<10_000 { _ = limiter.take("network-\(index)", limit: limit, now: now) }
        #expect(limiter.count <= 100)
    }

    @Test func everyRuleOfTheShippedConfigReadsItsOwnAppURLsBack() throws {
        let configuration = try shippedConfiguration()
        var checked = 0
        for site in configuration.sites {
            for rule in site.router.rules {
                for example in rule.examples {
                    let parts = HTTPRequestTargetParts(example)
                    guard case .page(let match) = site.router.route(rawPath: parts.rawPath, rawQuery: parts.rawQuery) else { continue }
                    let reading = try #require(match.rule.appURL.read(match.appURL), "\(match.appURL)")
                    for (name, value) in reading.values { #expect(match.values[name] == value, "\(match.appURL): \(name)") }
                    let resolved = ReportedLink.resolve(url: match.appURL, site: site)
                    guard case .success(let link) = resolved else {
                        Issue.record("\(match.appURL) does not resolve: \(resolved)")
                        continue
                    }
                    // Rules that share an app URL shape (two rules opening awful://users/{userid}) may
                    // resolve to the earlier one; the app URL they open must be the same.
                    #expect(link.match.appURL == match.appURL, "\(match.appURL) → \(link.match.rule.name)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 10)
    }

    @Test func appURLsOfAnotherShapeOrSchemeAreNotRead() throws {
        let template = try AppURLTemplate.parse("awful://threads/{threadid}/pages/{pagenumber}?userid={userid}").get()
        #expect(template.read("awful://threads/12/pages/3?userid=9&utm_source=x")?.values == ["threadid": "12", "pagenumber": "3", "userid": "9"])
        #expect(template.read("awful://threads/12/pages/3?userid=9&utm_source=x")?.otherQuery == [PassThroughValue(name: "utm_source", value: "x")])
        #expect(template.read("AWFUL://threads/12/pages/3")?.values == ["threadid": "12", "pagenumber": "3"])
        #expect(template.read("awful://threads/12/pages/") == nil)
        #expect(template.read("awful://threads/1/2/pages/3") == nil)
        #expect(template.read("other://threads/12/pages/3") == nil)
        #expect(template.read("awful://threads/%FF/pages/3") == nil)
    }
}
