import Foundation
import HTTPServing
import TestSupport
import Testing

/// How long the HTTP layer's waits take, printed by `bash bench/test-runs`: a graceful stop once
/// the last request in flight has finished (it must not wait out the grace period), and the cut of
/// an idle connection after the connection timeout. Wall-clock figures, so not unit tests: the
/// behaviour itself is tested in `HTTPServerTests`.
@Suite("HTTP server timings", .serialized, .enabled(if: BenchRuns.enabled, Comment(rawValue: BenchRuns.skipped)))
struct HTTPServerTimingBench {
    @Test func aStopReturnsOnceTheLastRequestInFlightIsAnswered() async throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        var configuration = HTTPServerConfiguration(threadCount: 2)
        configuration.shutdownGraceSeconds = 5
        let server = HTTPServer(
            configuration: configuration,
            responder: ClosureResponder { _ in
                entered.signal()
                release.wait()
                return HTTPResponse(status: 200, contentType: "text/plain", text: "finished")
            })
        try server.start()
        let port = server.port
        async let pending = OwnThread.run { try RawHTTPClient(port: port, timeoutSeconds: 60).request("GET", "/slow") }
        await OwnThread.run { entered.wait() }
        async let stopped: Void = OwnThread.run { server.stop() }
        #expect(await waitUntil { (try? RawHTTPClient(port: port)) == nil })
        let released = ContinuousClock.now
        release.signal()
        await stopped
        let waited = ContinuousClock.now - released
        #expect(try await pending.status == 200)
        print("bench: stop() returned \(waited) after the request in flight was released (grace period 5 s)")
    }

    @Test func anIdleConnectionIsCutAfterTheTimeout() throws {
        var configuration = HTTPServerConfiguration(threadCount: 1)
        configuration.connectionTimeoutSeconds = 1
        let server = HTTPServer(configuration: configuration, responder: ClosureResponder { _ in HTTPResponse(status: 204) })
        try server.start()
        defer { server.stop() }
        let idle = try RawHTTPClient(port: server.port, timeoutSeconds: 30)
        try idle.send("GET / HTTP/1.1\r\nHost: x\r\n")
        let started = ContinuousClock.now
        #expect(idle.isClosedByPeer())
        print("bench: an idle connection was cut \(ContinuousClock.now - started) after its last byte (timeout 1 s)")
    }
}
