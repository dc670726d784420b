import Foundation
import HTTPServing
import Synchronization
import TestSupport
import Testing

/// Bodies produced while they are sent, on a thread-per-connection listener: the client gets every
/// byte chunked, HEAD produces nothing, a client that leaves stops production (it is pulled as the
/// socket drains, not pushed ahead), and every stream is finished however its exchange ends.
@Suite("Streamed response bodies", .ownThread)
struct StreamedBodyTests {
    /// Counts what a stream produced and whether it was finished.
    final class Probe: Sendable {
        let produced = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
    }

    static let pieceSize = 64 * 1024

    /// A body of `pieces` pieces of 64 KiB, each filled with its index; throws at `failAt`.
    static func server(pieces: Int, failAt: Int? = nil, probe: Probe) throws -> HTTPServer {
        let configuration = HTTPServerConfiguration(connectionLimit: 8, threadPerConnection: true)
        let server = HTTPServer(
            configuration: configuration,
            responder: ClosureResponder { _ in
                var index = 0
                let stream = HTTPBodyStream(
                    next: {
                        guard index < pieces else { return nil }
                        if index == failAt { throw CancellationError() }
                        probe.produced.add(1, ordering: .relaxed)
                        defer { index += 1 }
                        return [UInt8](repeating: UInt8(index % 251), count: pieceSize)
                    },
                    finish: { probe.finished.add(1, ordering: .relaxed) })
                return HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], stream: stream)
            })
        try server.start()
        return server
    }

    /// HEAD on a streamed response: no body, the stream closed unread, and the exchange observed
    /// like any other (it once returned before the exchange was marked answered, and was lost).
    @Test func aHeadRequestForAStreamIsObservedAndItsStreamFinished() throws {
        let probe = Probe()
        let observed = Mutex<[HTTPExchange]>([])
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(connectionLimit: 8, threadPerConnection: true),
            responder: ClosureResponder { _ in
                HTTPResponse(
                    status: 200, stream: HTTPBodyStream(next: { [UInt8](repeating: 1, count: 10) }, finish: { probe.finished.add(1, ordering: .relaxed) }))
            },
            completionObserver: { exchange, _ in observed.withLock { $0.append(exchange) } })
        try server.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).request("HEAD", "/", headers: [("Connection", "close")])
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(waitUntil { observed.withLock { $0.count } == 1 }, "the HEAD exchange was never observed")
        #expect(observed.withLock { $0.first?.request.method } == "HEAD")
        #expect(observed.withLock { $0.first?.bodySize } == 0)
        #expect(probe.finished.load(ordering: .relaxed) == 1)
    }

    @Test func everyPieceArrivesChunkedAndTheStreamIsFinished() throws {
        let probe = Probe()
        let server = try Self.server(pieces: 40, probe: probe)
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).request("GET", "/", headers: [("Connection", "close")])
        #expect(response.status == 200)
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.body.count == 40 * Self.pieceSize)
        let expected = (0..<40).flatMap { [UInt8](repeating: UInt8($0 % 251), count: Self.pieceSize) }
        #expect(response.body == expected)
        #expect(waitUntil { probe.finished.load(ordering: .relaxed) == 1 })
    }

    @Test func headProducesNothingAndFinishesTheStream() throws {
        let probe = Probe()
        let server = try Self.server(pieces: 40, probe: probe)
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).request("HEAD", "/", headers: [("Connection", "close")])
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(waitUntil { probe.finished.load(ordering: .relaxed) == 1 })
        #expect(probe.produced.load(ordering: .relaxed) == 0)
    }

    @Test func aClientThatLeavesStopsProductionAndTheStreamIsFinished() throws {
        let probe = Probe()
        // 2,000 pieces are 128 MiB: far more than the socket buffers of both ends can hold.
        let server = try Self.server(pieces: 2000, probe: probe)
        defer { server.stop() }
        do {
            let client = try RawHTTPClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // Two pieces (128 KiB) fit in the sockets' buffers unread: production has run ahead as
            // far as it may before the client leaves.
            #expect(waitUntil { probe.produced.load(ordering: .relaxed) >= 2 })
        }
        #expect(waitUntil { probe.finished.load(ordering: .relaxed) == 1 }, "the stream was not finished after the client left")
        #expect(probe.produced.load(ordering: .relaxed) < 2000, "the whole body was produced for a client that read none of it")
    }

    @Test func aFailingStreamCutsTheBodyShortInsteadOfEndingItWell() throws {
        let probe = Probe()
        let server = try Self.server(pieces: 10, failAt: 3, probe: probe)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        #expect(throws: (any Error).self) { _ = try client.request("GET", "/", headers: [("Connection", "close")]) }
        #expect(waitUntil { probe.finished.load(ordering: .relaxed) == 1 })
        #expect(probe.produced.load(ordering: .relaxed) == 3)
    }
}
