import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// HTTPS served by linkhost itself, with a certificate from `linkhost dev-cert`, checked with curl.
@Suite("HTTPS and device-testing certificates", .ownThread, .serialized)
struct TLSTests {
    let folder: TemporaryDirectory

    /// One CA and host certificate from `linkhost dev-cert` for the whole suite (the suite's tests
    /// run one at a time; the one that makes more certificates puts them beside these), removed
    /// when the test process exits.
    static let certificates: Result<TemporaryDirectory, any Error> = Result {
        let folder = try TemporaryDirectory.untilExit()
        let made = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            ["dev-cert", "--host", "rowhni.com", "--host", "forums.somethingawful.com", "--host", "127.0.0.1", "--out", folder.path])
        guard made.status == 0 else { throw CertificateFailure(description: "dev-cert failed: \(made.error)") }
        return folder
    }

    struct CertificateFailure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        folder = try Self.certificates.get()
    }

    private var ca: String { folder.path + "/linkhost-dev-ca.pem" }

    /// The shipped config with HTTPS on a free port, from the certificate `dev-cert` made.
    private func configuration(
        plainHTTP: TLSSettings.PlainHTTP = .redirect, unknownHost: UnknownHostPolicy = .notFound, key: String = "rowhni.com-key.pem",
        priorities: String? = nil, editing: (JSONValue) -> JSONValue = { $0 }
    ) throws -> LinkhostConfiguration {
        var members = [
            JSONMember("certificate", .string(folder.path + "/rowhni.com.pem")), JSONMember("key", .string(folder.path + "/" + key)),
            JSONMember("port", 0), JSONMember("http", .string(plainHTTP.rawValue)),
        ]
        if let priorities { members.append(JSONMember("priorities", .string(priorities))) }
        let tls: JSONValue = .object(members)
        return try shippedConfiguration(unknownHost: unknownHost, settings: ["server.tls": tls], editing: editing)
    }

    private func curl(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try ChildProcess.run("curl", ["-s", "--max-time", "10"] + arguments)
    }

    /// In a folder of its own, so the listing holds exactly what one run made.
    @Test func devCertMakesACAAndAHostCertificateThatVerify() throws {
        let folder = try TemporaryDirectory()
        let ca = folder.path + "/linkhost-dev-ca.pem"
        let made = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            ["dev-cert", "--host", "rowhni.com", "--host", "forums.somethingawful.com", "--host", "127.0.0.1", "--out", folder.path])
        #expect(made.status == 0, "\(made.error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["linkhost-dev-ca-key.pem", "linkhost-dev-ca.crt", "linkhost-dev-ca.pem", "rowhni.com-key.pem", "rowhni.com.pem"])
        for key in ["linkhost-dev-ca-key.pem", "rowhni.com-key.pem"] {
            let mode = (try FileManager.default.attributesOfItem(atPath: folder.path + "/" + key)[.posixPermissions] as? NSNumber)?.intValue
            #expect(mode == 0o600, "\(key) must be private")
        }
        let verify = try ChildProcess.run("openssl", ["verify", "-CAfile", ca, folder.path + "/rowhni.com.pem"])
        #expect(verify.output.contains(": OK"), "\(verify.output) \(verify.error)")
        let text = try ChildProcess.run("openssl", ["x509", "-in", folder.path + "/rowhni.com.pem", "-noout", "-text"]).output
        #expect(text.contains("DNS:rowhni.com, DNS:forums.somethingawful.com, IP Address:127.0.0.1"))
        #expect(text.contains("TLS Web Server Authentication"))
        #expect(text.contains("CA:FALSE"))
        // A second run reuses the CA, so a phone that trusts it keeps trusting new certificates.
        let before = try String(contentsOfFile: ca, encoding: .utf8)
        let again = try ChildProcess.run(ProjectPaths.linkhostBinary, ["dev-cert", "--host", "links.example.com", "--out", folder.path])
        #expect(again.output.contains("reused the CA"))
        #expect(try String(contentsOfFile: ca, encoding: .utf8) == before)
        #expect(try ChildProcess.run("openssl", ["verify", "-CAfile", ca, folder.path + "/links.example.com.pem"]).output.contains(": OK"))
    }

    @Test func servesTheAASAAndPagesOverHTTPSWithHSTS() throws {
        let server = try startedServer(try configuration())
        defer { server.stop() }
        let port = server.tlsPort
        #expect(port > 0)
        let head = try curl([
            "-I", "--cacert", ca, "--resolve", "rowhni.com:\(port):127.0.0.1", "https://rowhni.com:\(port)/.well-known/apple-app-site-association",
        ])
        #expect(head.status == 0, "\(head.error)")
        #expect(head.output.hasPrefix("HTTP/1.1 200"))
        #expect(head.output.lowercased().contains("content-type: application/json\r\n"))
        #expect(head.output.lowercased().contains("strict-transport-security: max-age=31536000"))
        let page = try curl([
            "--cacert", ca, "--resolve", "forums.somethingawful.com:\(port):127.0.0.1", "https://forums.somethingawful.com:\(port)/showthread.php?threadid=456",
        ])
        #expect(HTMLProbe(page.output).attribute("href", ofElementWithID: "open-app") == "awful://threads/456")
        // Without the CA, curl refuses: the certificate really is checked.
        let untrusted = try curl(["--resolve", "rowhni.com:\(port):127.0.0.1", "https://rowhni.com:\(port)/healthz"])
        #expect(untrusted.status != 0)
        // Over HTTPS too, the public /healthz is the status alone.
        let health = try curl(["--cacert", ca, "--resolve", "rowhni.com:\(port):127.0.0.1", "https://rowhni.com:\(port)/healthz"])
        #expect(health.output == "{\n  \"status\": \"ok\"\n}\n", "\(health.output)")
    }

    @Test func plainHTTPRedirectsPagesButNeverTheAASA() throws {
        let server = try startedServer(try configuration())
        defer { server.stop() }
        let page = try RawHTTPClient(port: server.port).request("GET", "/addfriend?code=TEST123", host: "rowhni.com")
        #expect(page.status == 308)
        #expect(page.header("Location") == "https://rowhni.com:\(server.tlsPort)/addfriend?code=TEST123")
        // HSTS only over HTTPS: a server must not send it over plain HTTP (RFC 6797 §7.2).
        #expect(page.header("Strict-Transport-Security") == nil)
        for path in ["/.well-known/apple-app-site-association", "/apple-app-site-association"] {
            let aasa = try RawHTTPClient(port: server.port).request("GET", path, host: "rowhni.com")
            #expect(aasa.status == 200)
            #expect(aasa.header("Location") == nil)
            #expect(aasa.header("Content-Type") == "application/json")
            #expect(aasa.header("Strict-Transport-Security") == nil)
        }
        let health = try RawHTTPClient(port: server.port).request("GET", "/healthz", host: "rowhni.com")
        #expect(health.status == 200)
        #expect(health.header("Strict-Transport-Security") == nil)
        #expect(health.text == "{\n  \"status\": \"ok\"\n}\n", "\(health.text)")
        let unknown = try RawHTTPClient(port: server.port).request("GET", "/.well-known/apple-app-site-association", host: "nowhere.example")
        #expect(unknown.header("Strict-Transport-Security") == nil)
        // A forged Host that only reaches a site through the default cannot choose the target.
        let lenient = try startedServer(try configuration(unknownHost: .site("rowhni")))
        defer { lenient.stop() }
        let forged = try RawHTTPClient(port: lenient.port).request("GET", "/addfriend?code=TEST123", host: "evil.example")
        #expect(forged.header("Location") == "https://rowhni.com:\(lenient.tlsPort)/addfriend?code=TEST123")
    }

    /// Android's verifier follows no redirect: assetlinks.json is answered on plain HTTP as it is.
    @Test func plainHTTPNeverRedirectsAssetLinks() throws {
        let server = try startedServer(try configuration { AndroidFixture.adding(in: $0) })
        defer { server.stop() }
        let plain = try RawHTTPClient(port: server.port).request("GET", "/.well-known/assetlinks.json", host: "rowhni.com")
        #expect(plain.status == 200)
        #expect(plain.header("Location") == nil)
        #expect(plain.header("Content-Type") == "application/json")
        let secure = try curl([
            "--cacert", ca, "--resolve", "rowhni.com:\(server.tlsPort):127.0.0.1", "https://rowhni.com:\(server.tlsPort)/.well-known/assetlinks.json",
        ])
        #expect(secure.status == 0, "\(secure.error)")
        #expect(Array(secure.output.utf8) == plain.body)
    }

    @Test func plainHTTPCanBeServedOrTurnedOff() throws {
        let serving = try startedServer(try configuration(plainHTTP: .serve))
        defer { serving.stop() }
        #expect(try RawHTTPClient(port: serving.port).request("GET", "/addfriend?code=TEST123", host: "rowhni.com").status == 200)
        let off = try startedServer(try configuration(plainHTTP: .off))
        defer { off.stop() }
        #expect(off.port == 0)
        #expect(off.tlsPort > 0)
    }

    /// What a handshake with `openssl s_client` and `arguments` agreed on: "TLSv1.2 ECDHE-…" or
    /// `nil` when the server refused it.
    private func handshake(port: Int, _ arguments: [String]) throws -> String? {
        let result = try ChildProcess.run(
            "openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "rowhni.com", "-CAfile", ca] + arguments, timeoutSeconds: 20)
        let line = result.output.split(separator: "\n").first { $0.hasPrefix("New, ") }.map(String.init) ?? ""
        // "New, TLSv1.2, Cipher is ECDHE-ECDSA-AES128-GCM-SHA256", or "New, (NONE), Cipher is (NONE)".
        guard !line.contains("(NONE)"), let comma = line.firstIndex(of: ",") else { return nil }
        return line[line.index(after: comma)...].replacingOccurrences(of: ", Cipher is", with: "").trimmingCharacters(in: .whitespaces)
    }

    /// An intermediate profile: TLS 1.2 and 1.3, AEAD suites with forward secrecy only, in the
    /// server's order (the dev certificate's key is ECDSA, so the suites are ECDHE-ECDSA ones).
    @Test func offersOnlyAEADSuitesWithForwardSecrecyInTheServersOrder() throws {
        let server = try startedServer(try configuration())
        defer { server.stop() }
        let port = server.tlsPort
        #expect(try handshake(port: port, ["-tls1_3"]) == "TLSv1.3 TLS_AES_128_GCM_SHA256")
        #expect(try handshake(port: port, ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-GCM-SHA384"]) == "TLSv1.2 ECDHE-ECDSA-AES256-GCM-SHA384")
        #expect(try handshake(port: port, ["-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305"]) == "TLSv1.2 ECDHE-ECDSA-CHACHA20-POLY1305")
        // CBC suites, with or without SHA-2, and old versions: refused.
        #expect(try handshake(port: port, ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA"]) == nil)
        #expect(try handshake(port: port, ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA384"]) == nil)
        #expect(try handshake(port: port, ["-tls1_1"]) == nil)
        // The client prefers ChaCha20; the server's order puts AES-GCM first, and wins.
        #expect(
            try handshake(port: port, ["-tls1_2", "-cipher", "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256"])
                == "TLSv1.2 ECDHE-ECDSA-AES128-GCM-SHA256")
    }

    @Test func thePrioritiesAreASetting() throws {
        let only13 = try configuration(priorities: "NORMAL:-VERS-ALL:+VERS-TLS1.3")
        let server = try startedServer(only13)
        defer { server.stop() }
        #expect(try handshake(port: server.tlsPort, ["-tls1_2"]) == nil)
        #expect(try handshake(port: server.tlsPort, ["-tls1_3"]) != nil)
        // A string GnuTLS refuses is a start error that names it.
        let bogus = try configuration(priorities: "NORMAL:+NO-SUCH-THING")
        let refused = try LinkhostServer(configuration: bogus)
        #expect {
            try refused.start()
        } throws: { error in
            "\(error)".contains("priority string")
        }
    }

    @Test func aKeyThatDoesNotMatchIsAClearStartError() throws {
        let other = try ChildProcess.run(ProjectPaths.linkhostBinary, ["dev-cert", "--host", "other.example", "--out", folder.path])
        #expect(other.status == 0)
        let configuration = try configuration(key: "other.example-key.pem")
        let server = try LinkhostServer(configuration: configuration)
        #expect {
            try server.start()
        } throws: { error in
            "\(error)".contains("could not use the TLS certificate and key")
        }
    }

    @Test func configAndFlagsNameTheProblemWithCertificateFiles() throws {
        let site = exampleSite
        let missing = problems(in: configText(sites: [site], server: #"{"tls": {"certificate": "nope.pem", "key": "nope-key.pem"}}"#))
        #expect(missing.first?.path.description == "server.tls.certificate")
        #expect(missing.first?.fix.contains("linkhost dev-cert") == true)
        let clash = problems(
            in: configText(sites: [site], server: #"{"listen": {"port": 9000}, "tls": {"certificate": "a", "key": "b", "port": 9000, "http": "maybe"}}"#))
        #expect(clash.contains { $0.path.description == "server.tls.port" })
        #expect(clash.contains { $0.path.description == "server.tls.http" && $0.fix.contains("\"redirect\"") })
        let flag = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            [
                "serve", "--config", ProjectPaths.shippedConfig, "--tls-cert", folder.path + "/rowhni.com-key.pem", "--tls-key",
                folder.path + "/rowhni.com-key.pem",
            ])
        #expect(flag.status == 2)
        #expect(flag.error.contains("--tls-cert"))
        let half = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--tls-cert", "x.pem"])
        #expect(half.status == 64)
        #expect(half.error.contains("--tls-cert and --tls-key go together"))
    }
}
