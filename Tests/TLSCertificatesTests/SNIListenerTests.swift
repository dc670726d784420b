import Foundation
import HTTPServing
import TLSCertificates
import TestSupport
import Testing

/// A real TLS listener choosing each handshake's certificate from its store: checked with
/// `openssl s_client` per name, and under a load of new handshakes while the store is swapped.
@Suite("SNI: a real listener's certificate per host, swapped live", .ownThread)
struct SNIListenerTests {
    static let hosts = ["rowhni.com", "forums.somethingawful.com", "archives.somethingawful.com"]
    let certificates: TestCertificates

    init() throws {
        certificates = try TestCertificates()
    }

    private func startedServer(_ store: CertificateStore) throws -> HTTPServer {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(threadCount: 2, drainSeconds: 0, tls: TLSCredentials(certificates: store)),
            responder: ClosureResponder { _ in HTTPResponse(status: 204) })
        try server.start()
        return server
    }

    /// The subject's common name of the certificate a handshake with `serverName` got (no SNI when
    /// `nil`), verified against the test CA; `nil` when the handshake failed.
    static func servedName(port: Int, serverName: String?, caFile: String) throws -> String? {
        let name = serverName.map { ["-servername", $0] } ?? ["-noservername"]
        let run = try ChildProcess.run(
            "openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", caFile] + name, timeoutSeconds: 20)
        guard run.output.contains("Verify return code: 0 (ok)"),
            let subject = run.output.split(separator: "\n").first(where: { $0.hasPrefix("subject=") }),
            let range = subject.range(of: "CN = ")
        else { return nil }
        return String(subject[range.upperBound...])
    }

    @Test func eachHostGetsTheCertificateNamingItAndNoSNIGetsTheFirst() throws {
        let store = CertificateStore()
        for (index, host) in Self.hosts.enumerated() {
            store.install(try certificates.served([host]), for: [host], isDefault: index == 0)
        }
        let server = try startedServer(store)
        defer { server.stop() }
        for host in Self.hosts {
            #expect(try Self.servedName(port: server.port, serverName: host, caFile: certificates.caFile) == host)
        }
        #expect(try Self.servedName(port: server.port, serverName: "FORUMS.SomethingAwful.com", caFile: certificates.caFile) == Self.hosts[1])
        #expect(try Self.servedName(port: server.port, serverName: nil, caFile: certificates.caFile) == Self.hosts[0])
        #expect(try Self.servedName(port: server.port, serverName: "nowhere.example", caFile: certificates.caFile) == Self.hosts[0])
        // And the exchange after the handshake is served as ever.
        let curl = try ChildProcess.run(
            "curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificates.caFile, "--resolve", "\(Self.hosts[2]):\(server.port):127.0.0.1",
                "https://\(Self.hosts[2]):\(server.port)/",
            ])
        #expect(curl.output == "204", "\(curl.error)")
    }

    @Test func anEmptyStoreFailsHandshakesUntilACertificateArrives() throws {
        let store = CertificateStore()
        let server = try startedServer(store)
        defer { server.stop() }
        #expect(try Self.servedName(port: server.port, serverName: "rowhni.com", caFile: certificates.caFile) == nil)
        store.install(try certificates.served(["rowhni.com"]), for: ["rowhni.com"], isDefault: true)
        #expect(try Self.servedName(port: server.port, serverName: "rowhni.com", caFile: certificates.caFile) == "rowhni.com")
    }

    /// Short TLS handshakes on three threads (Python's ssl, one process) until a stop file appears;
    /// it prints `seen MARKER` the first time a served certificate holds a marker name, `count N`
    /// after every 20 handshakes, and at the end `handshakes N failed N errors [...]`.
    static let handshakeLoad = #"""
        import os, socket, ssl, sys, threading
        port, stop, markers = int(sys.argv[1]), sys.argv[2], [m.encode() for m in sys.argv[3:]]
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        lock = threading.Lock()
        counts, seen, errors = {"ok": 0, "failed": 0}, set(), []
        def run():
            while not os.path.exists(stop):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                        with context.wrap_socket(raw, server_hostname="rowhni.com") as tls:
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
        threads = [threading.Thread(target=run) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print("handshakes", counts["ok"], "failed", counts["failed"], "errors", errors, flush=True)
        """#

    @Test func aSwapUnderALoadOfNewHandshakesFailsNone() throws {
        let generations = 10
        // Each generation's certificate names rowhni.com and a marker name, so the client can tell them apart.
        let issued = try (0..<generations).map { try certificates.served(["rowhni.com", "generation\($0).linkhost.test"]) }
        let store = CertificateStore()
        store.install(issued[0], for: ["rowhni.com"], isDefault: true)
        let server = try startedServer(store)
        defer { server.stop() }
        let stop = certificates.folder.path + "/stop-handshakes"
        let load = try ChildProcess(
            "python3", ["-c", Self.handshakeLoad, "\(server.port)", stop] + (0..<generations).map { "generation\($0).linkhost.test" })
        defer {
            if load.isRunning { load.send(signal: SIGKILL) }
        }
        #expect(load.waitForOutput(containing: "seen generation0.linkhost.test"), "\(load.standardError)")
        let began = ContinuousClock.now
        // Each swap, then at least 40 more handshakes before the next: new handshakes run across
        // every swap, and each generation is seen served.
        for generation in 1..<generations {
            store.install(issued[generation], for: ["rowhni.com"], isDefault: true)
            #expect(load.waitForOutput(containing: "seen generation\(generation).linkhost.test"), "\(load.standardOutput)\(load.standardError)")
            #expect(load.waitForOutput(containing: "\ncount \(40 * generation)\n"), "\(load.standardError)")
        }
        let elapsed = ContinuousClock.now - began
        _ = FileManager.default.createFile(atPath: stop, contents: Data())
        #expect(load.waitForExit(timeoutSeconds: 30) == 0, "\(load.standardError)")
        let summary = load.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        print("\(generations - 1) swaps in \(elapsed) under load: \(summary)")
        let words = summary.split(separator: " ")
        #expect(words.count >= 4 && words[0] == "handshakes" && words[2] == "failed")
        #expect(words.count >= 4 && words[3] == "0", "\(summary)")
        #expect(words.count >= 2 && (Int(words[1]) ?? 0) >= 40 * (generations - 1))
    }
}
