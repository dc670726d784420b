import Foundation
import HTTPServing
import Logging
import Synchronization
import TestSupport
import Testing

/// Stopping a server with a pool of worker threads while clients keep opening connections: the
/// moment libmicrohttpd 0.9.75's `MHD_quiesce_daemon` raced with its own workers (a panic, "Failed
/// to remove listen FD from epoll set", that aborted the whole test run in CI). Each round stops a
/// busy server; any such race shows as a crash of the test process.
///
/// `LINKHOST_STRESS_ROUNDS` raises the number of rounds for a long run.
@Suite("Stopping busy servers", .ownThread)
struct StopUnderLoadTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["LINKHOST_STRESS_ROUNDS"] ?? "") ?? 40

    static let quietLogger: Logger = {
        var logger = Logger(label: "linkhost.stop-under-load")
        logger.logLevel = .error
        return logger
    }()

    @Test func aServerStoppedWhileClientsConnectStopsCleanlyAndRefusesAfterwards() throws {
        var answered = 0
        for round in 0..<Self.rounds {
            let server = HTTPServer(
                configuration: HTTPServerConfiguration(address: "127.0.0.1", port: 0, threadCount: 4), logger: Self.quietLogger,
                responder: ClosureResponder { _ in HTTPResponse(status: 200, contentType: "text/plain", text: "ok") })
            try server.start()
            let port = server.port
            let done = Atomic<Bool>(false)
            let successes = Atomic<Int>(0)
            let clients = DispatchGroup()
            for _ in 0..<3 {
                clients.enter()
                Thread {
                    defer { clients.leave() }
                    while !done.load(ordering: .relaxed) {
                        // A new connection per request keeps the listening socket busy.
                        guard let client = try? RawHTTPClient(port: port, timeoutSeconds: 2) else { continue }
                        if (try? client.request("GET", "/"))?.status == 200 { successes.add(1, ordering: .relaxed) }
                    }
                }.start()
            }
            // Stopped once the clients are being answered: a few answers in, a different moment of
            // the clients' loop each round.
            #expect(waitUntil { successes.load(ordering: .relaxed) > round % 5 }, "round \(round): no client was answered")
            server.stop()
            done.store(true, ordering: .relaxed)
            clients.wait()
            answered += successes.load(ordering: .relaxed)
            #expect(throws: (any Error).self, "round \(round): port \(port) accepts after stop()") { _ = try RawHTTPClient(port: port, timeoutSeconds: 1) }
        }
        #expect(answered > 0)
    }

    /// The drain: clients that send their next request the moment an answer arrives, on keep-alive
    /// connections, while the server stops. Every request sent on an open connection is answered
    /// (the answers during the drain say `Connection: close`), none is cut, and the stop ends as
    /// soon as the clients have gone.
    @Test(arguments: 0..<3) func aStopAnswersEveryRequestSentOnAnOpenConnection(round: Int) throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(address: "127.0.0.1", port: 0, threadCount: 2, shutdownGraceSeconds: 10, drainSeconds: 5),
            logger: Self.quietLogger,
            responder: ClosureResponder { _ in HTTPResponse(status: 200, contentType: "text/plain", text: "ok") })
        try server.start()
        let port = server.port
        let answered = Atomic<Int>(0)
        let unanswered = Atomic<Int>(0)
        let closedByAnswer = Atomic<Int>(0)
        let connected = Atomic<Int>(0)
        let unsent = Atomic<Int>(0)
        let clients = DispatchGroup()
        for _ in 0..<16 {
            clients.enter()
            Thread {
                defer { clients.leave() }
                guard let client = try? RawHTTPClient(port: port, timeoutSeconds: 10) else { return }
                connected.add(1, ordering: .relaxed)
                while true {
                    guard (try? client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")) != nil else {
                        unsent.add(1, ordering: .relaxed)
                        return
                    }
                    guard let response = try? client.readResponse() else {
                        unanswered.add(1, ordering: .relaxed)
                        return
                    }
                    answered.add(1, ordering: .relaxed)
                    if response.header("Connection")?.lowercased() == "close" {
                        closedByAnswer.add(1, ordering: .relaxed)
                        return
                    }
                }
            }.start()
        }
        // Stopped once every client is connected and busy (a thread started late on a loaded
        // machine would otherwise find the server gone, which is no request cut).
        #expect(waitUntil { connected.load(ordering: .relaxed) == 16 && answered.load(ordering: .relaxed) > 100 * (round + 1) })
        let stopping = ContinuousClock.now
        server.stop()
        let stopTook = ContinuousClock.now - stopping
        clients.wait()
        #expect(unanswered.load(ordering: .relaxed) == 0)
        #expect(unsent.load(ordering: .relaxed) == 0)
        #expect(closedByAnswer.load(ordering: .relaxed) == 16)
        #expect(server.statistics.exchangesCutShort == 0)
        #expect(server.statistics.responsesSent == answered.load(ordering: .relaxed))
        // Every client left on its closing answer: the stop did not wait out the drain window.
        #expect(stopTook < .seconds(5))
    }

    /// Connections the kernel completed just before the stop, each with its request sent, wait in
    /// the listen queue until the accept loop takes them: the stop takes them in and answers them
    /// (`Connection: close`) instead of resetting them with the socket.
    @Test func connectionsQueuedWhenTheStopBeginsAreAnsweredNotReset() throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(address: "127.0.0.1", port: 0, threadCount: 2, shutdownGraceSeconds: 10, drainSeconds: 1),
            logger: Self.quietLogger,
            responder: ClosureResponder { _ in HTTPResponse(status: 200, contentType: "text/plain", text: "ok") })
        try server.start()
        var clients: [RawHTTPClient] = []
        // Fewer than the connections one address may hold (256 by default).
        for _ in 0..<200 {
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 10)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            clients.append(client)
        }
        // At once: some of these are still in the queue, not yet accepted.
        server.stop()
        var statuses: [Int: Int] = [:]
        var failures = 0
        for client in clients {
            if let response = try? client.readResponse() { statuses[response.status, default: 0] += 1 } else { failures += 1 }
        }
        #expect(failures == 0, "\(failures) of 200 connections were reset or never answered")
        #expect(statuses == [200: 200])
    }
}
