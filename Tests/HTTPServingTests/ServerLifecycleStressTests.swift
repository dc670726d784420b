import Foundation
import HTTPServing
import Logging
import Synchronization
import TestSupport
import Testing

/// Servers started and stopped many at a time while other descriptors are opened and closed on
/// other threads: pipes watched by libdispatch sources, plain files, and child processes. A server
/// that closes a descriptor number it no longer owns (or closes one too early) lets another thread's
/// descriptor be closed or reused under it, which crashes or corrupts that thread; here that shows
/// as a crash, a failed request, a port still accepting after stop, or a churn check that fails.
///
/// `LINKHOST_STRESS_ROUNDS` raises the number of rounds per thread for a long run.
@Suite("Server lifecycles under descriptor churn", .ownThread)
struct ServerLifecycleStressTests {
    static let roundsPerThread = Int(ProcessInfo.processInfo.environment["LINKHOST_STRESS_ROUNDS"] ?? "") ?? 25

    /// libmicrohttpd reports every refused key at notice level; hundreds of them bury the results.
    static let quietLogger: Logger = {
        var logger = Logger(label: "linkhost.stress")
        logger.logLevel = .error
        return logger
    }()

    @Test func manyServersStartAndStopConcurrentlyWhileDescriptorsChurn() throws {
        let stop = Atomic<Bool>(false)
        let churnFailures = Mutex<[String]>([])
        let serverFailures = Mutex<[String]>([])
        let lifecycles = Atomic<Int>(0)
        let refusedStarts = Atomic<Int>(0)

        let churn = DispatchGroup()
        for worker in 0..<3 {
            churn.enter()
            let thread = Thread {
                defer { churn.leave() }
                while !stop.load(ordering: .relaxed) {
                    if let failure = Self.churnOnce(worker) {
                        churnFailures.withLock { $0.append(failure) }
                    }
                }
            }
            thread.start()
        }

        ParallelThreads.run(4) { index in
            for round in 0..<Self.roundsPerThread {
                // Every fourth start is meant to fail inside libmicrohttpd (unusable TLS key), the
                // path on which it closes the listening socket it was handed.
                if (round + index) % 4 == 0 {
                    var configuration = HTTPServerConfiguration(threadCount: 2)
                    configuration.tls = TLSCredentials(certificateChainPEM: "not a certificate", privateKeyPEM: "not a key")
                    let server = HTTPServer(
                        configuration: configuration, logger: Self.quietLogger, responder: ClosureResponder { _ in HTTPResponse(status: 204) })
                    do {
                        try server.start()
                        serverFailures.withLock { $0.append("a server with an unusable key started") }
                        server.stop()
                    } catch {
                        refusedStarts.add(1, ordering: .relaxed)
                    }
                    continue
                }
                // Each thread serves on an address of its own, so no other thread's server can take
                // over a port just freed, and the check connects from another address, so the
                // kernel cannot connect the socket to itself.
                let address = "127.0.0.\(20 + index)"
                do {
                    let port = try Self.serveOneRequestAndStop(address: address, tag: "\(index)-\(round)")
                    lifecycles.add(1, ordering: .relaxed)
                    if !Self.refusesSoon(address: address, port: port) {
                        serverFailures.withLock { $0.append("\(address):\(port) still accepts a second after stop()") }
                    }
                } catch {
                    serverFailures.withLock { $0.append("round \(index)-\(round): \(error)") }
                }
            }
        }
        stop.store(true, ordering: .relaxed)
        churn.wait()

        #expect(serverFailures.withLock { $0 } == [])
        #expect(churnFailures.withLock { $0 } == [])
        #expect(lifecycles.load(ordering: .relaxed) == 4 * Self.roundsPerThread - refusedStarts.load(ordering: .relaxed))
        #expect(refusedStarts.load(ordering: .relaxed) == Self.roundsPerThread)
    }

    /// Starts a server, answers one request on a connection that stays open into `stop()`, stops,
    /// and checks the server is freed. Returns the port it had.
    private static func serveOneRequestAndStop(address: String, tag: String) throws -> Int {
        weak var released: HTTPServer?
        let port: Int
        do {
            let server = HTTPServer(
                configuration: HTTPServerConfiguration(address: address, threadCount: 2, shutdownGraceSeconds: 1), logger: quietLogger,
                responder: ClosureResponder { _ in HTTPResponse(status: 200, contentType: "text/plain", text: tag) })
            try server.start()
            port = server.port
            let client = try RawHTTPClient(host: address, port: port)
            let response = try client.request("GET", "/")
            guard response.status == 200, response.text == tag else {
                server.stop()
                throw RawHTTPClient.ClientError.malformed("got \(response.status) \(response.text) for \(tag)")
            }
            server.stop()
            released = server
        }
        guard released == nil else { throw RawHTTPClient.ClientError.malformed("a stopped server was not freed") }
        return port
    }

    /// Whether connections to the port come to be refused. Not at once: a child being spawned on
    /// another thread holds a copy of every descriptor, close-on-exec ones included, until its exec,
    /// so a closed listening socket can live on for that moment. A socket that was not closed keeps
    /// accepting (until the safety net of `waitUntil` runs out).
    private static func refusesSoon(address: String, port: Int) -> Bool {
        waitUntil(timeoutSeconds: 10) { (try? RawHTTPClient(host: address, port: port, sourceAddress: "127.0.0.1")) == nil }
    }

    /// One round of descriptor churn; returns what went wrong, if anything.
    private static func churnOnce(_ worker: Int) -> String? {
        switch worker {
        case 0:
            // A pipe watched by a libdispatch read source: the kind of registration that crashes
            // libdispatch's manager thread when its descriptor is closed by someone else.
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return "pipe() failed" }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            let received = DispatchSemaphore(value: 0)
            let source = DispatchSource.makeReadSource(fileDescriptor: ends[0])
            source.setEventHandler {
                var byte: UInt8 = 0
                if read(ends[0], &byte, 1) == 1, byte == 42 { received.signal() }
            }
            source.setCancelHandler { close(ends[0]) }
            source.resume()
            var byte: UInt8 = 42
            let wrote = write(ends[1], &byte, 1)
            let arrived = received.wait(timeout: .now() + 5) == .success
            source.cancel()
            close(ends[1])
            return wrote == 1 && arrived ? nil : "a byte written to a watched pipe never arrived"
        case 1:
            // Plain files: each must read back exactly what was written through its own descriptor.
            let path = NSTemporaryDirectory() + "linkhost-churn-\(UUID().uuidString)"
            defer { unlink(path) }
            let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return "open() failed" }
            defer { close(descriptor) }
            let text = Array("churn \(path)".utf8)
            guard write(descriptor, text, text.count) == text.count, lseek(descriptor, 0, SEEK_SET) == 0 else { return "file write failed" }
            var back = [UInt8](repeating: 0, count: text.count)
            let count = read(descriptor, &back, back.count)
            return count == text.count && back == text ? nil : "a file read back something else: its descriptor was reused"
        default:
            // Child processes: their pipes come and go on other threads.
            guard let result = try? ChildProcess.run("sh", ["-c", "echo churn"], timeoutSeconds: 10) else { return "sh did not start" }
            return result.status == 0 && result.output == "churn\n" ? nil : "a child's output was lost: \(result)"
        }
    }
}
