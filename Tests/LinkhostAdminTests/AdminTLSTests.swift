import Foundation
import LinkhostAdmin
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// `server.admin.tls`: the admin listener serves the HTTPS listener's certificates from the same
/// store, so a reload's renewed files (and, with ACME, each issued certificate) reach it at once.
@Suite("Admin listener over HTTPS", .ownThread)
struct AdminTLSTests {
    @Test func theAdminListenerServesWhatHTTPSServesAndARenewal() throws {
        let folder = try TemporaryDirectory("admin-tls")
        let firstFolder = try TemporaryDirectory("admin-tls-first")
        let first = try TestCertificateFiles(in: firstFolder)
        let certificate = try folder.write("cert.pem", try String(contentsOfFile: first.certificateFile, encoding: .utf8))
        let key = try folder.write("key.pem", try String(contentsOfFile: first.keyFile, encoding: .utf8))
        let settings: [String: JSONValue] = [
            "server.tls": .object([
                JSONMember("certificate", .string(certificate)), JSONMember("key", .string(key)), JSONMember("port", 0), JSONMember("http", "serve"),
            ]),
            "server.admin.tls": .bool(true),
        ]
        let server = try LinkhostServer(configuration: try AdminHarness.configuration(in: folder, settings: settings))
        try server.start()
        defer { server.stop() }
        let admin = try AdminServer(server: server, token: try requireToken(AdminHarness.token), metrics: PrometheusMetrics())
        try admin.start()
        defer { admin.stop() }
        let firstLeaf = TestCertificateFiles.leafBase64(try String(contentsOfFile: first.certificateFile, encoding: .utf8))
        #expect(try TestCertificateFiles.servedCertificate(port: admin.port, serverName: nil, caFile: first.caFile) == firstLeaf)

        // Renewed files (another CA's), read by a reload: the admin listener serves them too.
        let renewedFolder = try TemporaryDirectory("admin-tls-renewed")
        let renewed = try TestCertificateFiles(in: renewedFolder)
        _ = try folder.write("cert.pem", try String(contentsOfFile: renewed.certificateFile, encoding: .utf8))
        _ = try folder.write("key.pem", try String(contentsOfFile: renewed.keyFile, encoding: .utf8))
        let outcome = server.reload(try AdminHarness.configuration(in: folder, settings: settings))
        #expect(outcome.succeeded, "\(String(describing: outcome.failure))")
        let renewedLeaf = TestCertificateFiles.leafBase64(try String(contentsOfFile: renewed.certificateFile, encoding: .utf8))
        #expect(try TestCertificateFiles.servedCertificate(port: admin.port, serverName: nil, caFile: renewed.caFile) == renewedLeaf)
        #expect(try TestCertificateFiles.servedCertificate(port: server.tlsPort, serverName: nil, caFile: renewed.caFile) == renewedLeaf)
    }
}
