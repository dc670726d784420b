import Foundation

/// New TLS connections to a port, one short handshake after another on three threads (Python's
/// `ssl` in one child process), until `stop()`: the load under which a certificate swap must fail
/// no handshake. The client sends `serverName` as SNI and verifies nothing; it reports when it first
/// sees a certificate holding one of `markers` (a name in it) and how many handshakes it made.
public final class HandshakeLoad: Sendable {
    /// What the load did: handshakes completed, handshakes failed, and the first few errors.
    public struct Summary: Sendable, CustomStringConvertible {
        public let handshakes: Int
        public let failed: Int
        public let errors: String

        public var description: String { "\(handshakes) handshakes, \(failed) failed \(errors)" }
    }

    private let child: ChildProcess
    private let stopFile: String

    public init(port: Int, serverName: String, markers: [String] = [], in folder: TemporaryDirectory) throws {
        stopFile = folder.path + "/stop-handshake-load-\(port)"
        child = try ChildProcess("python3", ["-c", Self.script, "\(port)", serverName, stopFile] + markers)
    }

    deinit {
        if child.isRunning { child.send(signal: SIGKILL) }
    }

    /// Waits until a served certificate held `marker`.
    public func waitForMarker(_ marker: String, timeoutSeconds: Double = 20) -> Bool {
        child.waitForOutput(containing: "seen \(marker)\n", timeoutSeconds: timeoutSeconds)
    }

    /// Waits until `count` handshakes (a multiple of 20) have completed.
    public func waitForHandshakes(_ count: Int, timeoutSeconds: Double = 30) -> Bool {
        child.waitForOutput(containing: "\ncount \(count)\n", timeoutSeconds: timeoutSeconds)
    }

    /// Stops the load and returns what it did (`nil` when it did not report: see `output`).
    public func stop() -> Summary? {
        _ = FileManager.default.createFile(atPath: stopFile, contents: Data())
        guard child.waitForExit(timeoutSeconds: 30) == 0, let line = child.standardOutput.split(separator: "\n").last else { return nil }
        let words = line.split(separator: " ", maxSplits: 5)
        guard words.count >= 4, words[0] == "handshakes", let handshakes = Int(words[1]), let failed = Int(words[3]) else { return nil }
        return Summary(handshakes: handshakes, failed: failed, errors: words.count > 5 ? String(words[5]) : "")
    }

    /// Everything the load printed, for a failure message.
    public var output: String { child.standardOutput + child.standardError }

    /// `started`, then `seen MARKER` the first time a certificate holds a marker, `count N` after every 20
    /// handshakes, and at the end `handshakes N failed N errors [...]`.
    static let script = #"""
        import os, socket, ssl, sys, threading
        port, server_name, stop, markers = int(sys.argv[1]), sys.argv[2], sys.argv[3], [m.encode() for m in sys.argv[4:]]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        lock = threading.Lock()
        counts, seen, errors = {"ok": 0, "failed": 0}, set(), []
        def run():
            while not os.path.exists(stop):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                        with context.wrap_socket(raw, server_hostname=server_name) as tls:
                            der = tls.getpeercert(binary_form=True)
                    with lock:
                        counts["ok"] += 1
                        if counts["ok"] % 20 == 0:
                            print("count", counts["ok"], flush=True)
                        for marker in markers:
                            if marker in der and marker not in seen:
                                seen.add(marker)
                                print("seen", marker.decode(), flush=True)
                except Exception as error:
                    with lock:
                        counts["failed"] += 1
                        if len(errors) < 5:
                            errors.append(repr(error))
        print("started", flush=True)
        threads = [threading.Thread(target=run) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print("handshakes", counts["ok"], "failed", counts["failed"], "errors", errors, flush=True)
        """#
}
