import DevCertificates
import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// The certificate HTTPS serves per host, chosen by SNI: files (one pair for every host, read again
/// at a reload) and issued certificates (each site's for its hosts), swapped with no listener
/// restart. Checked with `openssl s_client`, which shows the certificate each name got.
@Suite("HTTPS: the certificate for each host, swapped live", .ownThread, .serialized)
struct CertificatePerHostTests {
    static let hosts = ["rowhni.com", "forums.somethingawful.com", "archives.somethingawful.com"]
    let folder: TemporaryDirectory
    let authority: DevCertificateAuthority

    init() throws {
        folder = try TemporaryDirectory("certificate-per-host")
        authority = try DevCertificateAuthority.loadOrCreate(in: folder.path).0
    }

    private var caFile: String { folder.path + "/" + DevCertificateAuthority.certificateFileName }

    /// Writes a certificate for `hosts` and its key as `<name>.pem` and `<name>-key.pem`.
    @discardableResult
    private func writeCertificate(_ hosts: [String], name: String) throws -> DevHostCertificate {
        let issued = try authority.issue(hosts: hosts)
        // Written beside and renamed, as certbot or a secrets manager replaces a file.
        for (file, text) in [(name + ".pem", issued.certificateChainPEM), (name + "-key.pem", issued.privateKeyPEM)] {
            let temporary = try folder.write(file + ".new", text)
            guard rename(temporary, folder.path + "/" + file) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        return issued
    }

    static func servedCertificate(port: Int, serverName: String?, caFile: String) throws -> String? {
        try TestCertificateFiles.servedCertificate(port: port, serverName: serverName, caFile: caFile)
    }

    static func leafBase64(_ pem: String) -> String? { TestCertificateFiles.leafBase64(pem) }

    private func fileConfiguration() throws -> LinkhostConfiguration {
        let tls: JSONValue = .object([
            JSONMember("certificate", .string(folder.path + "/files.pem")), JSONMember("key", .string(folder.path + "/files-key.pem")),
            JSONMember("port", 0), JSONMember("http", "serve"),
        ])
        return try shippedConfiguration(settings: ["server.tls": tls])
    }

    @Test func filesServeEveryHostAndIssuedCertificatesServeTheirOwnHosts() throws {
        let files = try writeCertificate(Self.hosts, name: "files")
        let server = try startedServer(try fileConfiguration())
        defer { server.stop() }
        let port = server.tlsPort
        for host in Self.hosts + [nil] {
            #expect(try Self.servedCertificate(port: port, serverName: host, caFile: caFile) == Self.leafBase64(files.certificateChainPEM))
        }
        // Each host's expiry, as the metrics show it: a dev certificate lasts 397 days.
        let now = Int64(Date().timeIntervalSince1970)
        #expect(server.certificateExpiries.map(\.host) == Self.hosts)
        #expect(server.certificateExpiries.allSatisfy { abs($0.expiresAt - (now + 397 * 86400)) < 7200 }, "\(server.certificateExpiries)")
        // Each host its own certificate, as issued ones arrive; the listener stays as it is.
        var issued: [String: DevHostCertificate] = [:]
        for host in Self.hosts {
            let certificate = try authority.issue(hosts: [host])
            issued[host] = certificate
            try server.serveCertificate(chainPEM: certificate.certificateChainPEM, keyPEM: certificate.privateKeyPEM, hosts: [host])
        }
        #expect(server.tlsPort == port)
        for host in Self.hosts {
            #expect(
                try Self.servedCertificate(port: port, serverName: host, caFile: caFile) == Self.leafBase64(issued[host]?.certificateChainPEM ?? ""),
                "\(host)")
        }
        // rowhni.com is the first site's whole host list: its certificate is the default too.
        #expect(try Self.servedCertificate(port: port, serverName: nil, caFile: caFile) == Self.leafBase64(issued["rowhni.com"]?.certificateChainPEM ?? ""))
        // A renewal of it replaces both, on the same listener.
        let first = try authority.issue(hosts: ["rowhni.com"])
        try server.serveCertificate(chainPEM: first.certificateChainPEM, keyPEM: first.privateKeyPEM, hosts: ["rowhni.com"])
        #expect(try Self.servedCertificate(port: port, serverName: nil, caFile: caFile) == Self.leafBase64(first.certificateChainPEM))
        #expect(try Self.servedCertificate(port: port, serverName: "rowhni.com", caFile: caFile) == Self.leafBase64(first.certificateChainPEM))
        #expect(server.tlsPort == port)
        // An unusable pair is refused and the old one serves on.
        let other = try authority.issue(hosts: ["other.example"])
        #expect(throws: (any Error).self) {
            try server.serveCertificate(chainPEM: first.certificateChainPEM, keyPEM: other.privateKeyPEM, hosts: ["rowhni.com"])
        }
        #expect(try Self.servedCertificate(port: port, serverName: "rowhni.com", caFile: caFile) == Self.leafBase64(first.certificateChainPEM))
    }

    /// A served certificate that expires within 14 days makes the health report `degraded`, files
    /// included, and names its hosts; a renewed file read again by a reload clears it.
    @Test func aCertificateNearItsExpiryDegradesTheHealthUntilRenewed() throws {
        let old = try authority.issue(hosts: Self.hosts, now: Date().addingTimeInterval(-390 * 86400))
        _ = try folder.write("files.pem", old.certificateChainPEM)
        _ = try folder.write("files-key.pem", old.privateKeyPEM)
        let server = try startedServer(try fileConfiguration())
        defer { server.stop() }
        let health = server.healthDetails
        #expect(health["status"] == "degraded", "\(health)")
        #expect(health["tls"]?["expiringWithin14Days"] == .array(Self.hosts.map { .string($0) }))
        let daysLeft = health["tls"]?["certificates"]?.arrayElements?.first?["daysLeft"]
        #expect(daysLeft == 6 || daysLeft == 7, "\(String(describing: daysLeft))")
        try writeCertificate(Self.hosts, name: "files")
        #expect(server.reload(try fileConfiguration()).succeeded)
        #expect(server.healthDetails["status"] == "ok", "\(server.healthDetails)")
        #expect(server.healthDetails["tls"]?["expiringWithin14Days"] == .array([]))
    }

    @Test func aReloadServesRenewedFilesAndKeepsTheOldPairForABadOne() throws {
        let original = try writeCertificate(Self.hosts, name: "files")
        let configuration = try fileConfiguration()
        let server = try startedServer(configuration)
        defer { server.stop() }
        let port = server.tlsPort
        #expect(try Self.servedCertificate(port: port, serverName: "rowhni.com", caFile: caFile) == Self.leafBase64(original.certificateChainPEM))
        let renewed = try writeCertificate(Self.hosts, name: "files")
        let outcome = server.reload(try fileConfiguration())
        #expect(outcome.succeeded, "\(String(describing: outcome.failure))")
        #expect(outcome.needsRestart.isEmpty, "\(outcome.needsRestart)")
        #expect(server.tlsPort == port)
        for host in Self.hosts {
            #expect(try Self.servedCertificate(port: port, serverName: host, caFile: caFile) == Self.leafBase64(renewed.certificateChainPEM))
        }
        // A key that is not the certificate's: refused, with the reason; the renewed pair serves on.
        let stray = try authority.issue(hosts: ["other.example"])
        _ = try folder.write("files-key.pem", stray.privateKeyPEM)
        let refused = server.reload(try fileConfiguration())
        #expect(refused.failure?.problems.first?.path.description == "server.tls.certificate")
        #expect("\(String(describing: refused.failure))".contains("does not belong to the certificate"), "\(String(describing: refused.failure))")
        #expect(try Self.servedCertificate(port: port, serverName: "rowhni.com", caFile: caFile) == Self.leafBase64(renewed.certificateChainPEM))
    }

    /// Through the real binary: certificate files replaced as certbot does, then SIGHUP, serve the
    /// new pair on the same listener; a bad pair and `linkhost reload` keep the old one, and the
    /// reload's report (the admin `/healthz`, the log) says why.
    @Test func filesReplacedAndSIGHUPServeTheNewCertificateThroughTheBinary() throws {
        let original = try writeCertificate(Self.hosts, name: "files")
        let tlsPort = try FreePort.find()
        let config = try ServeReloadTests.Served.config(in: folder) { config in
            config.set(
                "server.tls",
                to: .object([
                    JSONMember("certificate", "files.pem"), JSONMember("key", "files-key.pem"), JSONMember("port", .number(JSONNumber(tlsPort))),
                    JSONMember("http", "serve"),
                ]))
        }
        let server = try ServeReloadTests.Served(folder: folder, config: config)
        defer {
            server.child.send(signal: SIGTERM)
            _ = server.child.waitForExit(timeoutSeconds: 60)
        }
        let served = { (host: String?) in try? Self.servedCertificate(port: tlsPort, serverName: host, caFile: self.caFile) }
        #expect(served("forums.somethingawful.com") == Self.leafBase64(original.certificateChainPEM), "\(server.child.standardError)")

        let renewed = try writeCertificate(Self.hosts, name: "files")
        server.child.send(signal: SIGHUP)
        #expect(waitUntil(timeoutSeconds: 20) { served("rowhni.com") == Self.leafBase64(renewed.certificateChainPEM) }, "\(server.child.standardError)")
        for host in Self.hosts + [nil] {
            #expect(served(host) == Self.leafBase64(renewed.certificateChainPEM))
        }
        let applied = try server.health()["reload"]
        #expect(applied?["applied"] == 1)
        #expect(applied?["last"]?["needsRestart"] == .array([]), "\(String(describing: applied))")

        // A certificate file that is no certificate, and `linkhost reload`: refused, the renewed pair serves on.
        _ = try folder.write("files.pem", "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n")
        let reload = try ChildProcess.run(ProjectPaths.linkhostBinary, ["reload", "--config", config.file])
        #expect(reload.status == 0, "\(reload.error)")
        var report: JSONValue?
        #expect(
            waitUntil(timeoutSeconds: 20) {
                report = try? server.health()["reload"]
                return report?["refused"] == 1
            }, "\(server.child.standardError)")
        let problem = report?["last"]?["problems"]?.arrayElements?.first
        #expect(problem?["path"] == "server.tls.certificate")
        #expect(problem?["problem"]?.stringValue?.contains("the certificate chain cannot be read") == true, "\(String(describing: problem))")
        // The log line follows the report's entry.
        #expect(waitUntil(timeoutSeconds: 10) { server.child.standardError.contains("still serving the previous certificate") })
        #expect(served("rowhni.com") == Self.leafBase64(renewed.certificateChainPEM))
        #expect(server.child.isRunning)
    }
}
