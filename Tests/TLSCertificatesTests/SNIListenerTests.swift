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

    @Test func aSwapUnderALoadOfNewHandshakesFailsNone() throws {
        let generations = 10
        // Each generation's certificate names rowhni.com and a marker name, so the client can tell them apart.
        let issued = try (0..<generations).map { try certificates.served(["rowhni.com", "generation\($0).linkhost.test"]) }
        let store = CertificateStore()
        store.install(issued[0], for: ["rowhni.com"], isDefault: true)
        let server = try startedServer(store)
        defer { server.stop() }
        let load = try HandshakeLoad(
            port: server.port, serverName: "rowhni.com", markers: (0..<generations).map { "generation\($0).linkhost.test" }, in: certificates.folder)
        #expect(load.waitForMarker("generation0.linkhost.test"), "\(load.output)")
        let began = ContinuousClock.now
        // Each swap, then at least 40 more handshakes before the next: new handshakes run across
        // every swap, and each generation is seen served.
        for generation in 1..<generations {
            store.install(issued[generation], for: ["rowhni.com"], isDefault: true)
            #expect(load.waitForMarker("generation\(generation).linkhost.test"), "\(load.output)")
            #expect(load.waitForHandshakes(40 * generation), "\(load.output)")
        }
        let elapsed = ContinuousClock.now - began
        let summary = load.stop()
        print("\(generations - 1) swaps in \(elapsed) under load: \(summary.map(String.init(describing:)) ?? load.output)")
        #expect(summary?.failed == 0, "\(load.output)")
        #expect((summary?.handshakes ?? 0) >= 40 * (generations - 1))
    }
}
