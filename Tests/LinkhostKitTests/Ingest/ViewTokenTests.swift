import Foundation
import HTTPServing
import LinkLog
import LinkLogSQLite
import LinkRules
import Logging
import OrderedJSON
import Synchronization
import TestSupport
import Testing

@testable import LinkhostKit

/// The view token (`lh_view`): made per person's view of a link, placed into the cached page on
/// every hand-off to the app, stripped from copied links before they route or are logged, and
/// taken back from app opens to pair each with its view. Pages and reports are answered in-process.
@Suite("View tokens", .ownThread, .serialized)
struct ViewTokenTests {
    static let key = "test-ingest-key-0123456789"
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    private func server() throws -> LinkhostServer {
        try LinkhostServer(
            configuration: try shippedConfiguration(logDatabase: folder.path + "/log.sqlite"),
            ingestKeys: try IngestKeys(["rowhni": Self.key, "awful": Self.key]))
    }

    private func rows() throws -> [LogRow] {
        try LogReader(databasePath: folder.path + "/log.sqlite").rows(LogFilter()).sorted { $0.id < $1.id }
    }

    private func open(_ client: InProcessClient, _ body: String) throws -> RawHTTPClient.Response {
        try client.request(
            "POST", "/v1/opens", host: "rowhni.com", headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(Self.key)")],
            body: Array(body.utf8))
    }

    @Test func tokensAreSixteenURLSafeCharactersOfFreshRandomness() {
        let source = ViewTokenSource(clock: { ViewTokenSource.epochMilliseconds + 86_400_000 })
        let tokens = (0..<20_000).map { _ in source.make() }
        #expect(tokens.allSatisfy(ViewToken.isWellFormed))
        #expect(Set(tokens).count == tokens.count)
        // Made at one moment, every token starts with the same 6 characters of time; every
        // character of the alphabet turns up in each of the 10 random positions.
        #expect(Set(tokens.map { $0.prefix(6) }).count == 1)
        for position in 6..<16 {
            let seen = Set(tokens.map { Array($0.utf8)[position] })
            #expect(seen.count == 64, "position \(position): \(seen.count) characters")
        }
        #expect(ViewToken.isWellFormed("AZaz09-_AZaz09-_"))
        for bad in ["AZaz09-_AZaz09-", "AZaz09-_AZaz09-_A", "AZaz09+/AZaz09==", "AZaz09-_AZaz09-é", "", "AZaz09-_AZaz09-\u{0}"] {
            #expect(!ViewToken.isWellFormed(bad), "\(bad)")
        }
    }

    /// Tokens sort (byte by byte, as the log's index compares them) in the order they were made, so
    /// a batch of views' rows writes the index's last pages rather than one random page each.
    @Test func tokensSortInTheOrderTheyWereMade() {
        let now = Mutex(ViewTokenSource.epochMilliseconds)
        let source = ViewTokenSource(clock: { now.withLock { $0 } })
        // The first 1/64 s, then steps across every digit of the time's characters: 16 ms, a
        // minute, a day, a year, and the last moment before the time wraps (2059).
        let steps: [Int64] = [0, 16, 1_000, 60_000, 86_400_000, 365 * 86_400_000, 30 * 365 * 86_400_000, 1_073_741_823_985]
        var made: [String] = []
        for step in steps {
            now.withLock { $0 = ViewTokenSource.epochMilliseconds + step }
            made.append(source.make())
        }
        #expect(made.first?.prefix(6) == "------")
        #expect(made.last?.prefix(6) == "zzzzzz")
        for (earlier, later) in zip(made, made.dropFirst()) {
            #expect(Array(earlier.utf8).lexicographicallyPrecedes(Array(later.utf8)), "\(earlier) before \(later)")
            #expect(earlier.prefix(6) != later.prefix(6))
        }
        // A clock before the epoch makes the earliest time rather than a negative one.
        now.withLock { $0 = 0 }
        #expect(source.make().prefix(6) == "------")
    }

    @Test func aTokenIsAddedToALinksQueryAndTakenOutOfOneAsSent() {
        #expect(ViewToken.adding("T", to: "rowhni://addfriend?code=X") == "rowhni://addfriend?code=X&lh_view=T")
        #expect(ViewToken.adding("T", to: "awful://threads/1") == "awful://threads/1?lh_view=T")
        #expect(ViewToken.adding("T", to: "https://a.example/p?x=1#frag") == "https://a.example/p?x=1&lh_view=T#frag")
        #expect(ViewToken.adding("T", to: "https://a.example/p?") == "https://a.example/p?lh_view=T")
        #expect(ViewToken.adding("T", to: "rowhni://ü?a=é&#frag#2") == "rowhni://ü?a=é&lh_view=T#frag#2")
        #expect(ViewToken.adding("T", to: "") == "?lh_view=T")
        let raw = "code=A%2BB&lh_view=abc&utm_source=x+y&lh%5Fview=def&flag"
        let (items, rest) = ViewToken.removed(from: LinkRouter.queryItems(raw), rawQuery: raw)
        #expect(rest == "code=A%2BB&utm_source=x+y&flag")
        #expect(items.map(\.name) == ["code", "utm_source", "flag"])
        #expect(ViewToken.values(in: LinkRouter.queryItems(raw)) == ["abc", "def"])
        #expect(ViewToken.removed(fromRawQuery: "lh_view=abc") == nil)
        let good = "AZaz09-_AZaz09-_"
        #expect(ViewToken.reported(field: nil, inLink: [good]) == good)
        #expect(ViewToken.reported(field: good, inLink: []) == good)
        #expect(ViewToken.reported(field: good, inLink: [good]) == good)
        #expect(ViewToken.reported(field: good, inLink: ["BZaz09-_AZaz09-_"]) == nil, "two different tokens: neither")
        #expect(ViewToken.reported(field: nil, inLink: [good, "BZaz09-_AZaz09-_"]) == nil)
        #expect(ViewToken.reported(field: "short", inLink: []) == nil)
        #expect(ViewToken.reported(field: nil, inLink: []) == nil)
    }

    /// A person's view of a link gets a token of its own on every hand-off, in a page sent as
    /// personal; the rest of the page is the cached one, byte for byte.
    @Test func everyViewOfALinkHandsOnItsOwnToken() throws {
        let server = try server()
        defer { server.stop() }
        var tokens: [String] = []
        var masked: Set<String> = []
        for _ in 0..<3 {
            let page = try server.inProcess.request("GET", "/addfriend?code=TEST123", host: "rowhni.com", headers: [("User-Agent", UserAgents.iPhone)])
            #expect(page.status == 200)
            #expect(page.header("Cache-Control") == "private, no-store")
            let found = ViewTokens.all(in: page.text)
            // The open button and the copied link (no App Store id in the shipped config: no banner).
            #expect(found.count == 2 && Set(found).count == 1, "\(found)")
            tokens += found.prefix(1)
            masked.insert(ViewTokens.masked(page.text))
            let probe = HTMLProbe(page.text)
            #expect(probe.attribute("href", ofElementWithID: "open-app") == "rowhni://addfriend?code=TEST123&lh_view=\(found[0])")
            #expect(probe.attribute("data-copy", ofElementWithID: "copy-link") == "https://rowhni.com/addfriend?code=TEST123&lh_view=\(found[0])")
            #expect(probe.meta("og:url") == "https://rowhni.com/addfriend?code=TEST123", "the canonical link has no token")
        }
        #expect(Set(tokens).count == 3)
        #expect(masked.count == 1)
        // Each view's row keeps its own token.
        server.stop()
        #expect(try rows().compactMap(\.viewToken) == tokens)
    }

    @Test(arguments: [UserAgents.whatsAppPreview, "curl/8.5.0", "Googlebot/2.1 (+http://www.google.com/bot.html)"])
    func crawlersAndPreviewsGetTheSharedPageWithoutAToken(agent: String) throws {
        let server = try server()
        defer { server.stop() }
        let first = try server.inProcess.request("GET", "/addfriend?code=TEST123", host: "rowhni.com", headers: [("User-Agent", agent)])
        let again = try server.inProcess.request("GET", "/addfriend?code=TEST123", host: "rowhni.com", headers: [("User-Agent", agent)])
        #expect(first.status == 200 && first.body == again.body)
        #expect(!first.text.contains("lh_view"))
        #expect(first.header("Cache-Control") == "no-cache")
    }

    /// A copied link carries the token of the view it was copied from. Opened in a browser, it is
    /// the link's page (the token routes no rule), the old token is nowhere on it, and the row
    /// keeps the new view's token and the query without the old one.
    @Test func aCopiedLinkOpenedInABrowserGetsAPageWithAFreshToken() throws {
        let server = try server()
        defer { server.stop() }
        let old = "OLDTOKENOLDTOKEN"
        let page = try server.inProcess.request(
            "GET", "/addfriend?code=TEST123&lh_view=\(old)&utm_source=copied", host: "rowhni.com", headers: [("User-Agent", UserAgents.iPhone)])
        #expect(page.status == 200)
        #expect(!page.text.contains(old))
        let fresh = try #require(ViewTokens.all(in: page.text).first)
        for hostile in ["%22%3E%3Cscript%3Ealert(1)%3C/script%3E", String(repeating: "x", count: 3000), "\(old)&lh_view=\(old)"] {
            let forum = try server.inProcess.request(
                "GET", "/showthread.php?threadid=456&lh_view=\(hostile)", host: "forums.somethingawful.com", headers: [("User-Agent", UserAgents.iPhone)])
            #expect(forum.status == 200, "a token, however malformed, routes no rule")
            #expect(!forum.text.contains("alert"), "never reflected")
            #expect(!forum.text.contains("xxxxxxxxxx") && !forum.text.contains(old))
            // The forum page's web link (continue on the web) is the link as sent, without the token.
            #expect(HTMLProbe(forum.text).attribute("href", ofElementWithID: "continue-web") == "https://forums.somethingawful.com/showthread.php?threadid=456")
        }
        server.stop()
        let view = try #require(try rows().first)
        #expect(view.viewToken == fresh)
        #expect(view.query?.contains("lh_view") == false, "\(view.query ?? "")")
        #expect(view.utmSource == "copied")
    }

    /// `POST /v1/opens` takes the token from the reported URL (which routes and is logged without
    /// it) or from `view`; anything doubtful is accepted and logged without a token.
    @Test func anOpenReportsItsTokenInTheLinkOrApart() throws {
        let server = try server()
        let client = server.inProcess
        let token = "AZaz09-_AZaz09-_"
        let viaLink = try open(client, #"{"url": "https://rowhni.com/addfriend?code=TEST123&lh_view=\#(token)&utm_source=a", "source": "pasteboard"}"#)
        #expect(viaLink.status == 200)
        #expect(try JSONParser().parse(viaLink.body)["appURL"] == "rowhni://addfriend?code=TEST123")
        let viaScheme = try open(client, #"{"url": "rowhni://addfriend?code=TEST123&lh_view=\#(token)", "source": "custom-scheme"}"#)
        #expect(try JSONParser().parse(viaScheme.body)["appURL"] == "rowhni://addfriend?code=TEST123")
        let viaField = try open(client, #"{"url": "https://rowhni.com/addfriend?code=TEST123", "source": "install-referrer", "view": "\#(token)"}"#)
        #expect(viaField.status == 200)
        let disagreeing = try open(client, #"{"url": "https://rowhni.com/addfriend?code=TEST123&lh_view=\#(token)", "view": "BZaz09-_AZaz09-_"}"#)
        #expect(disagreeing.status == 200)
        let malformed = try open(client, #"{"url": "https://rowhni.com/addfriend?code=TEST123&lh_view=%22%3E%3Cx"}"#)
        #expect(malformed.status == 200)
        let repeated = try open(client, #"{"url": "https://rowhni.com/addfriend?code=TEST123&lh_view=\#(token)&lh_view=BZaz09-_AZaz09-_"}"#)
        #expect(repeated.status == 200)
        let wrongKind = try open(client, #"{"url": "https://rowhni.com/addfriend?code=TEST123", "view": 7}"#)
        #expect(wrongKind.status == 400)
        #expect(try JSONParser().parse(wrongKind.body)["detail"]?.stringValue?.contains("\"view\"") == true)
        server.stop()
        let opens = try rows()
        #expect(opens.map(\.viewToken) == [token, token, token, nil, nil, nil])
        #expect(opens.map(\.event) == ["pasteboard", "custom-scheme", "install-referrer", nil, nil, nil])
        #expect(opens.allSatisfy { $0.query?.contains("lh_view") != true }, "\(opens.map(\.query))")
        #expect(opens[0].utmSource == "a")
    }

    /// The page's own token, reported back, pairs the open with that view: bypass opens and
    /// installs in the funnel, one credit per token.
    @Test func aPagesTokenReportedBackPairsTheOpenWithThatView() throws {
        let server = try server()
        let client = server.inProcess
        func view(_ agent: String, _ campaign: String) throws -> String {
            let page = try client.request("GET", "/joingroup?code=ABC123&utm_campaign=\(campaign)", host: "rowhni.com", headers: [("User-Agent", agent)])
            return try #require(ViewTokens.all(in: page.text).first)
        }
        let bypass = try view(UserAgents.iPhone, "spring")
        let installed = try view(UserAgents.instagramOnIPhone, "spring")
        _ = try view(UserAgents.iPhone, "autumn")
        #expect(try open(client, #"{"url": "rowhni://joingroup?code=ABC123&lh_view=\#(bypass)", "source": "custom-scheme"}"#).status == 200)
        let link = "https://rowhni.com/joingroup?code=ABC123&lh_view=\(installed)"
        #expect(try open(client, #"{"url": "\#(link)", "source": "pasteboard"}"#).status == 200)
        // The same copied link, passed on and opened again: a shared link, not another install.
        #expect(try open(client, #"{"url": "\#(link)", "source": "pasteboard"}"#).status == 200)
        server.stop()
        let reader = try LogReader(databasePath: folder.path + "/log.sqlite")
        let funnel = try reader.funnel(by: .utmCampaign, LogFilter())
        let spring = try #require(funnel.first { $0.key == "spring" })
        #expect(spring.views == 2 && spring.opensAfterView == 2 && spring.bypassOpens == 1 && spring.installs == 1, "\(funnel)")
        #expect(funnel.first { $0.key == "autumn" }?.opensAfterView == 0)
        let byApp = try reader.funnel(by: .inApp, LogFilter())
        #expect(byApp.first { $0.key == "instagram" }?.installs == 1, "\(byApp)")
    }
}

/// A row is stamped with when its request arrived, not when the observer logged it: the observer
/// runs after the response went out, and by then the client's next request (the app open that
/// followed a page view) may have been logged by another thread. Stamped late, a view could come
/// after the open it led to, and the open was paired with an older view (seen in the README's
/// walk under a loaded run: the open credited to the view without a campaign).
@Suite("Hit timestamps", .ownThread)
struct HitTimestampTests {
    @Test func aRowIsStampedWithWhenItsRequestArrived() throws {
        let folder = try TemporaryDirectory()
        let settings = LogSettings(databasePath: folder.path + "/log.sqlite", secretKeyFile: folder.path + "/log.key")
        let logger = try HitLogger(settings: settings, logger: Logger(label: "test"))
        let before = LogRecord.currentTimeMilliseconds()
        let request = HTTPRequest(method: "GET", target: "/addfriend?code=TEST123", headers: ["Host": "rowhni.com"])
        // An exchange whose head arrived 5 s before it ended.
        logger.observe(
            HTTPExchange(request: request, status: 200, bodySize: 10, durationNanoseconds: 5_000_000_000),
            ServedRequest(endpoint: .page, kind: .fallback), clientClass: nil)
        _ = logger.writer.stop()
        let row = try #require(try LogReader(databasePath: settings.databasePath).rows().first)
        #expect(row.timestampMilliseconds <= before - 4_900, "\(before - row.timestampMilliseconds) ms before the observer ran")
        #expect(row.timestampMilliseconds >= before - 5_100)
    }
}
