import Foundation
import LinkhostClient
import TestSupport
import Testing

/// The client against the built `linkhost` server: the route it answers, its refusals, and the
/// retries while it is not up yet. Each test starts its own server on a free port and stops it by
/// its process id.
@Suite("LinkhostClient against the linkhost server", .serialized)
struct RealServerTests {
    static let key = "test-ingest-key-6f1c2a9e"
    static let addFriend = URL(string: "https://rowhni.com/addfriend?code=TEST123")!

    /// A policy quick enough for tests that still retries (attempts every ~0.1 to 0.8 s for 20 s).
    static let quickRetries = RetryPolicy(maximumAttempts: 60, initialDelay: 0.1, multiplier: 2, maximumDelay: 0.8, attemptTimeout: 30, maximumTotalTime: 40)

    @Test func aLinkOfARuleComesBackAsItsRoute() async throws {
        let server = try LinkhostServer(port: try FreePort.find(), ingestKey: Self.key)
        defer { server.stop() }
        let client = server.rowhniClient(key: Self.key)
        let route = try await client.report(openedURL: Self.addFriend)
        #expect(route.site == "rowhni")
        #expect(route.rule == "addfriend")
        #expect(route.appURL == URL(string: "rowhni://addfriend?code=TEST123"))
        #expect(route.parameters == ["code": "TEST123"])
        // Every source is accepted, with an explicit time; the app's own scheme routes the same.
        let anHourAgo = Date().addingTimeInterval(-3600)
        for source in OpenSource.allCases {
            #expect(try await client.report(openedURL: Self.addFriend, source: source, openedAt: anHourAgo) == route)
        }
        #expect(try await client.report(openedURL: route.appURL, source: .customScheme) == route)
        // Each report is one open in the hit log, as the reported link.
        #expect(server.stop() == 0)
        let reports = 2 + OpenSource.allCases.count
        #expect(server.responsesSent == reports)
        let rows = try server.appOpenRows()
        #expect(rows.count == reports)
        #expect(rows.allSatisfy { $0["path"] as? String == "/addfriend" && $0["rule"] as? String == "addfriend" }, "\(rows)")
    }

    /// A fallback page's open button hands the app its custom-scheme URL with the view's token
    /// (`lh_view`); the client reports it as it came, the route comes back without it, and the
    /// open is paired with that view: a bypass open in the funnel. A token handed over apart from
    /// the URL (Google Play's install referrer) goes in `viewToken` and pairs as an install.
    @Test func aPagesTokenComesBackWithTheOpenAndPairsIt() async throws {
        let server = try LinkhostServer(port: try FreePort.find(), ingestKey: Self.key)
        defer { server.stop() }
        func openLink(_ target: String, agent: String) throws -> String {
            let page = try RawHTTPClient(port: server.port).request("GET", target, host: "rowhni.com", headers: [("User-Agent", agent)])
            let start = try #require(page.text.range(of: "id=\"open-app\" href=\""))
            return String(page.text[start.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
        }
        let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
        let opened = try #require(URL(string: try openLink("/addfriend?code=TEST123&utm_campaign=spring", agent: iPhone)))
        let token = try #require(ViewTokenLink.token(in: opened))
        #expect(token.count == 16)
        #expect(ViewTokenLink.removingToken(from: opened) == URL(string: "rowhni://addfriend?code=TEST123"))
        let client = server.rowhniClient(key: Self.key)
        let route = try await client.report(openedURL: opened, source: .customScheme)
        #expect(route.appURL == URL(string: "rowhni://addfriend?code=TEST123"))
        #expect(route.parameters == ["code": "TEST123"])
        // Google Play's referrer: the web link and the token apart from it.
        let android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36"
        // (The shipped Rowhni has no Android app: its page offers the link to copy, token and all.)
        let androidPage = try RawHTTPClient(port: server.port).request(
            "GET", "/addfriend?code=TEST123&utm_campaign=spring", host: "rowhni.com", headers: [("User-Agent", android)])
        let secondView = try #require(ViewTokens.all(in: androidPage.text).first)
        _ = try await client.report(openedURL: Self.addFriend, source: .installReferrer, viewToken: secondView)
        #expect(server.stop() == 0)
        let funnel = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["stats", "--funnel", "--by", "utm_campaign", "--format", "json", "--db", server.folder.path + "/log.sqlite"])
        let spring = try #require((try JSONSerialization.jsonObject(with: Data(funnel.output.utf8)) as? [[String: Any]])?.first)
        #expect(spring["utm_campaign"] as? String == "spring")
        #expect(spring["views"] as? Int == 2)
        #expect(spring["bypass_opens"] as? Int == 1)
        #expect(spring["installs"] as? Int == 1)
        #expect(spring["opens_after_view"] as? Int == 2)
    }

    @Test func aWrongKeyIsA401WithoutRetries() async throws {
        let server = try LinkhostServer(port: try FreePort.find(), ingestKey: Self.key)
        let wrongKey = "wrong-key-0b7d3e55"
        // The standard policy would retry a retryable failure within half a second or so.
        let error = await #expect(throws: LinkhostClientError.self) {
            try await server.rowhniClient(key: wrongKey).report(openedURL: Self.addFriend)
        }
        #expect(error?.kind == .server)
        #expect(error?.status == 401)
        #expect(error?.isUnauthorized == true)
        #expect(error?.code?.isEmpty == false)
        #expect(error?.detail.isEmpty == false)
        #expect(error?.attempts == 1)
        // The attempt count (and the server's one response, below) is the proof that nothing was
        // retried. No bound on the time: in a full parallel run, blocking tests can hold every thread
        // of the test process's cooperative pool for minutes, and the await above cannot resume until
        // one is free (a CI run measured 185 s for this one local request).
        for text in [error.map(String.init(describing:)), error?.localizedDescription, error?.detail, error?.code] {
            #expect(text?.contains(wrongKey) == false)
            #expect(text?.contains(Self.key) == false)
        }
        // The server answered exactly one request (a refused report leaves no row in the hit log).
        #expect(server.stop() == 0)
        #expect(server.responsesSent == 1)
        #expect(try server.appOpenRows().isEmpty)
    }

    @Test func aURLOfNoRuleIsA422() async throws {
        let server = try LinkhostServer(port: try FreePort.find(), ingestKey: Self.key)
        defer { server.stop() }
        let client = server.rowhniClient(key: Self.key)
        let cases = [
            ("https://rowhni.com/no-such-link?code=TEST123", "no link rule"),
            ("https://forums.somethingawful.com/showthread.php?threadid=456", "not a host of site rowhni"),
        ]
        for (url, reason) in cases {
            let error = await #expect(throws: LinkhostClientError.self) {
                try await client.report(openedURL: URL(string: url)!)
            }
            #expect(error?.status == 422, "\(url)")
            #expect(error?.code == "unknown_link")
            #expect(error?.detail.contains(reason) == true, "\(error?.detail ?? "")")
            #expect(error?.attempts == 1)
        }
        #expect(server.stop() == 0)
        #expect(server.responsesSent == 2)
    }

    /// The report starts while the port only drops connections (a scripted listener resets each
    /// one, as a server going down does); once it has failed there, the real server takes the port
    /// and a later attempt of the backoff gets the route.
    @Test func aServerThatComesUpDuringTheBackoffGetsTheReport() async throws {
        let dropping = try ScriptedHTTPServer([.dropped])
        let port = dropping.port
        let client = LinkhostServer.rowhniClient(port: port, key: Self.key, retryPolicy: Self.quickRetries)
        let report = Task { try await client.report(openedURL: Self.addFriend) }
        #expect(await waitUntil { dropping.drops >= 1 }, "the report never reached the port")
        dropping.stop()
        let server = try await OwnThread.run { try LinkhostServer(port: port, ingestKey: Self.key) }
        defer { server.stop() }
        let route = try await report.value
        #expect(route.rule == "addfriend")
        #expect(route.parameters["code"] == "TEST123")
        // Only the attempt after the server came up got an answer.
        #expect(server.stop() == 0)
        #expect(server.responsesSent == 1)
    }

    /// Cancelling the task ends the report while it waits to retry a port that drops connections,
    /// and nothing is sent there afterwards.
    @Test func cancellingTheTaskStopsTheRetries() async throws {
        let dropping = try ScriptedHTTPServer([.dropped])
        defer { dropping.stop() }
        let client = LinkhostServer.rowhniClient(port: dropping.port, key: Self.key, retryPolicy: Self.quickRetries)
        let report = Task { try await client.report(openedURL: Self.addFriend) }
        #expect(await waitUntil { dropping.drops >= 2 }, "the report was not retrying")
        report.cancel()
        await #expect(throws: CancellationError.self) { try await report.value }
        // Uncancelled, the policy would go on retrying (at most 0.8 s apart) for up to 40 s.
        let attempts = dropping.requests.count
        #expect(await neverHappens(withinSeconds: 2) { dropping.requests.count > attempts })
    }
}
