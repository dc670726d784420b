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
        #expect(server.responsesSent == 5)
        let rows = try server.appOpenRows()
        #expect(rows.count == 5)
        #expect(rows.allSatisfy { $0["path"] as? String == "/addfriend" && $0["rule"] as? String == "addfriend" }, "\(rows)")
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
