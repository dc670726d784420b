import Foundation
import LinkhostClient
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The client's request and its retry rules, against a scripted server that can answer 503, 429
/// with `Retry-After`, unreadable bodies and slow answers on demand.
@Suite("LinkhostClient retries and requests")
struct ScriptedServerTests {
    static let key = "scripted-key-91d0c6"
    static let link = URL(string: "https://rowhni.com/addfriend?code=ABC123")!
    /// Short pauses, so the tests are quick, but generous attempt and total times: the whole suite
    /// runs in parallel on a loaded two-core CI machine, where one local request has been seen to
    /// take over ten seconds, and a budget used up by load must not read as a retry rule broken.
    static let fast = RetryPolicy(maximumAttempts: 5, initialDelay: 0.05, multiplier: 2, maximumDelay: 0.2, attemptTimeout: 30, maximumTotalTime: 90)

    /// A client of the scripted server with a session of its own (tests run in parallel).
    static func client(_ server: ScriptedHTTPServer, policy: RetryPolicy = fast) -> LinkhostClient {
        LinkhostClient(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, ingestKey: key, session: URLSession(configuration: .ephemeral), retryPolicy: policy)
    }

    @Test func theRequestIsTheContractsPost() async throws {
        let server = try ScriptedHTTPServer([.route])
        defer { server.stop() }
        let route = try await Self.client(server)
            .report(openedURL: Self.link, source: .customScheme, openedAt: Date(timeIntervalSince1970: 1_795_428_000))
        #expect(route == LinkRoute(site: "rowhni", rule: "addfriend", appURL: URL(string: "rowhni://addfriend?code=ABC123")!, parameters: ["code": "ABC123"]))
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == "POST")
        #expect(request.target == "/v1/opens")
        #expect(request.headers["authorization"] == "Bearer \(Self.key)")
        #expect(request.headers["content-type"] == "application/json")
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: String])
        #expect(body == ["url": "https://rowhni.com/addfriend?code=ABC123", "openedAt": "2026-11-23T10:00:00Z", "source": "custom-scheme"])
    }

    @Test func aBaseURLWithAPathKeepsItAsAPrefix() async throws {
        let server = try ScriptedHTTPServer([.route])
        defer { server.stop() }
        let client = LinkhostClient(baseURL: URL(string: "http://127.0.0.1:\(server.port)/links/")!, ingestKey: Self.key)
        _ = try await client.report(openedURL: Self.link)
        #expect(server.requests.first?.target == "/links/v1/opens")
    }

    @Test func fiveHundredsAreRetriedUntilTheRouteComes() async throws {
        let server = try ScriptedHTTPServer([.json(503, #"{"error": "unavailable", "detail": "starting"}"#), .json(500, "{}"), .route])
        defer { server.stop() }
        let route = try await Self.client(server).report(openedURL: Self.link)
        #expect(route.rule == "addfriend")
        #expect(server.requests.count == 3)
    }

    @Test func retriesEndAfterTheLastAttemptWithTheLastAnswer() async throws {
        let server = try ScriptedHTTPServer([.json(502, #"{"error": "bad_gateway", "detail": "upstream down"}"#)])
        defer { server.stop() }
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 0.05, maximumDelay: 0.1, attemptTimeout: 30, maximumTotalTime: 90)
        let error = await #expect(throws: LinkhostClientError.self) { try await Self.client(server, policy: policy).report(openedURL: Self.link) }
        #expect(error?.status == 502)
        #expect(error?.code == "bad_gateway")
        #expect(error?.detail == "upstream down")
        #expect(error?.attempts == 3)
        #expect(server.requests.count == 3)
    }

    @Test func retriesEndWhenTheTotalTimeIsUsedUp() async throws {
        let server = try ScriptedHTTPServer([.json(503, "{}")])
        defer { server.stop() }
        let policy = RetryPolicy(
            maximumAttempts: 1_000, initialDelay: 0.1, multiplier: 1, maximumDelay: 0.1, jitter: 0, attemptTimeout: 30, maximumTotalTime: 1)
        let started = ProcessInfo.processInfo.systemUptime
        let error = await #expect(throws: LinkhostClientError.self) { try await Self.client(server, policy: policy).report(openedURL: Self.link) }
        let elapsed = ProcessInfo.processInfo.systemUptime - started
        #expect(error?.status == 503)
        // Retries go on while a pause still fits in the second, and none starts after it: stopping
        // early fails the first check, going on past the second the count (a 0.1 s pause each, so at
        // most 11 attempts fit; the policy allows 1,000). Load only makes attempts slower, so fewer
        // fit, never more. No upper bound on the time: in a full parallel run, blocking tests can hold
        // every thread of the test process's cooperative pool, and this task cannot resume meanwhile.
        #expect(elapsed + 0.1 > 1.0, "gave up after \(elapsed) s with time left")
        #expect((1...11).contains(error?.attempts ?? 0), "\(error?.attempts ?? 0) attempts in a 1 s budget with 0.1 s pauses")
        #expect(server.requests.count == error?.attempts)
    }

    @Test func a429WaitsAsLongAsRetryAfterSays() async throws {
        let server = try ScriptedHTTPServer([.json(429, #"{"error": "rate_limited", "detail": "slow down"}"#, headers: ["Retry-After": "1"]), .route])
        defer { server.stop() }
        _ = try await Self.client(server).report(openedURL: Self.link)
        let requests = server.requests
        #expect(requests.count == 2)
        if requests.count == 2 {
            // The backoff alone would have waited at most 0.05 s.
            #expect(requests[1].receivedAt - requests[0].receivedAt >= 0.95)
        }
    }

    @Test func aRetryAfterBeyondTheTotalTimeEndsTheReportAtOnce() async throws {
        let server = try ScriptedHTTPServer([.json(429, #"{"error": "rate_limited", "detail": "slow down"}"#, headers: ["Retry-After": "120"])])
        defer { server.stop() }
        let started = ProcessInfo.processInfo.systemUptime
        let error = await #expect(throws: LinkhostClientError.self) { try await Self.client(server).report(openedURL: Self.link) }
        // Waiting as told would take 120 s.
        #expect(ProcessInfo.processInfo.systemUptime - started < 60)
        #expect(error?.status == 429)
        #expect(error?.retryAfter == 120)
        #expect(error?.attempts == 1)
    }

    @Test(arguments: [400, 401, 404, 413, 415, 422])
    func otherClientErrorsAreNeverRetried(status: Int) async throws {
        let server = try ScriptedHTTPServer([.json(status, #"{"error": "e\#(status)", "detail": "because \#(status)"}"#), .route])
        defer { server.stop() }
        let error = await #expect(throws: LinkhostClientError.self) { try await Self.client(server).report(openedURL: Self.link) }
        #expect(error?.kind == .server)
        #expect(error?.status == status)
        #expect(error?.code == "e\(status)")
        #expect(error?.detail == "because \(status)")
        #expect(error?.attempts == 1)
        #expect(server.requests.count == 1)
    }

    @Test func anErrorWithoutAJSONBodyStillHasItsStatus() async throws {
        let server = try ScriptedHTTPServer([ScriptedHTTPServer.Reply(status: 404, headers: ["Content-Type": "text/html"], body: "<h1>Not Found</h1>")])
        defer { server.stop() }
        let error = await #expect(throws: LinkhostClientError.self) { try await Self.client(server).report(openedURL: Self.link) }
        #expect(error?.status == 404)
        #expect(error?.code == nil)
        #expect(error?.detail.isEmpty == false)
    }

    @Test func aSuccessThatIsNoRouteIsAnInvalidResponse() async throws {
        let server = try ScriptedHTTPServer([.json(200, #"{"site": "rowhni"}"#)])
        defer { server.stop() }
        let error = await #expect(throws: LinkhostClientError.self) { try await Self.client(server).report(openedURL: Self.link) }
        #expect(error?.kind == .invalidResponse)
        #expect(error?.status == 200)
        #expect(server.requests.count == 1)
    }

    /// A hostile or careless server that echoes the key does not get it into the error.
    @Test func theKeyIsInNoDescription() async throws {
        let server = try ScriptedHTTPServer([.json(401, #"{"error": "bad key \#(Self.key)", "detail": "Bearer \#(Self.key) is not the key"}"#)])
        defer { server.stop() }
        let client = Self.client(server)
        let error = await #expect(throws: LinkhostClientError.self) { try await client.report(openedURL: Self.link) }
        var dumped = ""
        dump(client, to: &dumped)
        let texts = [
            error.map(String.init(describing:)), error.map { String(reflecting: $0) }, error?.localizedDescription, error?.detail, error?.code,
            String(describing: client), String(reflecting: client), dumped,
        ]
        for text in texts {
            #expect(text?.contains(Self.key) == false, "\(text ?? "")")
        }
        #expect(error?.detail.contains("<redacted>") == true)
    }

    @Test func cancellingStopsTheRetriesAtOnce() async throws {
        let server = try ScriptedHTTPServer([.json(503, "{}")])
        defer { server.stop() }
        let policy = RetryPolicy(maximumAttempts: 1_000, initialDelay: 0.1, multiplier: 1, maximumDelay: 0.1, maximumTotalTime: 60)
        let client = Self.client(server, policy: policy)
        let report = Task { try await client.report(openedURL: Self.link) }
        // Wait until it is retrying (a loaded machine may take a while for the first attempts).
        #expect(await waitUntil { server.requests.count >= 2 }, "the report was retrying before it was cancelled")
        report.cancel()
        await #expect(throws: CancellationError.self) { try await report.value }
        // Retries come every 0.1 s: in six times that, none may come.
        let count = server.requests.count
        #expect(await neverHappens(withinSeconds: 0.6) { server.requests.count > count })
    }

    /// The answer is held back until the test ends: the report can only end by being cancelled.
    @Test func cancellingEndsARequestInFlight() async throws {
        let server = try ScriptedHTTPServer([.json(503, "{}", held: true)])
        defer { server.stop() }
        let client = Self.client(server)
        let report = Task { try await client.report(openedURL: Self.link) }
        #expect(await waitUntil { server.requests.count == 1 }, "the request never arrived")
        report.cancel()
        await #expect(throws: CancellationError.self) { try await report.value }
        #expect(server.requests.count == 1)
    }

    /// The answer is held back until the call has returned: returning at all means the caller never
    /// waited for it.
    @Test func reportingInTheBackgroundReturnsAtOnce() async throws {
        let server = try ScriptedHTTPServer([.json(200, ScriptedHTTPServer.Reply.route.body, held: true)])
        defer { server.stop() }
        let client = Self.client(server)
        let task = await firstResult { await OwnThread.run { client.reportInBackground(openedURL: Self.link, source: .pasteboard) } }
        #expect(task != nil, "reportInBackground waited for the answer")
        server.release()
        await task?.value
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.body.isEmpty == false)
    }

    @Test func aBackgroundFailureIsHandedToOnFailureAndNotThrown() async throws {
        let server = try ScriptedHTTPServer([.json(422, #"{"error": "no_rule", "detail": "no rule serves /nothing"}"#)])
        defer { server.stop() }
        let failures = FailureRecorder()
        await Self.client(server).reportInBackground(openedURL: Self.link) { failures.record($0) }.value
        let recorded = failures.errors
        #expect(recorded.count == 1)
        #expect((recorded.first as? LinkhostClientError)?.status == 422)
    }
}
