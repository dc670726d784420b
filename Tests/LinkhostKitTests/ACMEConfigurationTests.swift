import ACME
import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// `server.tls.acme`: read with its defaults, refused with the JSON path and a fix for every bad
/// value and conflict, and the HTTP-01 answers on the plain listener.
@Suite("Configuration: ACME")
struct ACMEConfigurationTests {
    static let acme = #""directory": "https://acme.test/dir", "email": "ops@rowhni.com", "agreeToTerms": true"#

    static func server(tls: String) -> String { #"{"tls": \#(tls)}"# }

    @Test func readsTheSettingsWithTheirDefaults() throws {
        let text = configText(server: Self.server(tls: "{\"acme\": {\(Self.acme)}}"))
        let configuration = try ConfigurationLoader.parse(Array(text.utf8), baseDirectory: ProjectPaths.root)
        let acme = try #require(configuration.server.tls?.acme)
        #expect(acme == ACMESettings(directory: "https://acme.test/dir", email: "ops@rowhni.com", storagePath: ProjectPaths.root + "/data/acme"))
        #expect(acme.keyType == .ecdsaP256 && acme.renewDaysBefore == nil)
        #expect(configuration.server.tls?.certificatePEM == "", "the certificate comes from the storage at start")
        #expect(configuration.server.tls?.plainHTTP == .redirect)
    }

    @Test func readsEveryKey() throws {
        let folder = try TemporaryDirectory("acme-config")
        let ca = try folder.write("ca.pem", "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n")
        let tls =
            "{\"acme\": {\(Self.acme), \"caCertificate\": \"\(ca)\", \"storage\": \"\(folder.path)/certs\", \"keyType\": \"rsa-2048\", \"renewDaysBefore\": 20}}"
        let configuration = try ConfigurationLoader.parse(Array(configText(server: Self.server(tls: tls)).utf8), baseDirectory: ProjectPaths.root)
        let acme = try #require(configuration.server.tls?.acme)
        #expect(acme.caCertificatePath == ca && acme.storagePath == folder.path + "/certs")
        #expect(acme.keyType == .rsa2048 && acme.renewDaysBefore == 20)
    }

    @Test(arguments: [
        (#"{"certificate": "a.pem", "key": "b.pem", "acme": {ACME}}"#, #"server.tls.certificate: "certificate" is given beside "acme""#),
        (#"{"key": "b.pem", "acme": {ACME}}"#, #"server.tls.key: "key" is given beside "acme""#),
        (#"{"http": "off", "acme": {ACME}}"#, #"server.tls.http: "http": "off" leaves no plain listener"#),
        (#"{"acme": {"email": "ops@rowhni.com", "agreeToTerms": true}}"#, #"server.tls.acme.directory: "directory" is missing"#),
        (
            #"{"acme": {"directory": "http://acme.test/dir", "email": "ops@rowhni.com", "agreeToTerms": true}}"#,
            "server.tls.acme.directory: \"http://acme.test/dir\" is not an https:// URL"
        ),
        (#"{"acme": {"directory": "https://acme.test/dir", "email": "ops", "agreeToTerms": true}}"#, #"server.tls.acme.email: "ops" is not an email address"#),
        (#"{"acme": {"directory": "https://acme.test/dir", "email": "a@b.c, d@e.f", "agreeToTerms": true}}"#, "server.tls.acme.email"),
        (
            #"{"acme": {"directory": "https://acme.test/dir", "email": "ops@rowhni.com"}}"#,
            "server.tls.acme.agreeToTerms: the CA's terms of service are not agreed to"
        ),
        (
            #"{"acme": {"directory": "https://acme.test/dir", "email": "ops@rowhni.com", "agreeToTerms": false}}"#,
            "server.tls.acme.agreeToTerms: the CA's terms"
        ),
        (#"{"acme": {ACME, "keyType": "ed25519"}}"#, #"server.tls.acme.keyType: "ed25519" is not a key type"#),
        (#"{"acme": {ACME, "renewDaysBefore": 0}}"#, "server.tls.acme.renewDaysBefore: 0 is outside 1...365"),
        (#"{"acme": {ACME, "caCertificate": "missing-ca.pem"}}"#, "server.tls.acme.caCertificate"),
        (#"{"acme": {ACME, "storrage": "x"}}"#, #"server.tls.acme.storrage: unknown key "storrage""#),
    ])
    func badValuesNameTheirPathAndAFix(tls: String, expected: String) {
        let found = problems(
            in: configText(
                server: Self.server(tls: tls.replacingOccurrences(of: "{ACME}", with: "{\(Self.acme)}").replacingOccurrences(of: "ACME", with: Self.acme))))
        #expect(found.contains { $0.description.hasPrefix(expected) && !$0.fix.isEmpty }, "\(found)")
    }

    @Test func hostsHTTP01CannotValidateAreRefused() {
        let sites = [
            exampleSite.replacingOccurrences(of: #""hosts": ["example.com"]"#, with: #""hosts": ["example.com", "*.example.com", "192.0.2.7"]"#)
        ]
        let found = problems(in: configText(sites: sites, server: Self.server(tls: "{\"acme\": {\(Self.acme)}}")))
        #expect(found.contains { $0.description.hasPrefix(#"sites[0].hosts[1]: "*.example.com" is a wildcard"#) && !$0.fix.isEmpty }, "\(found)")
        #expect(found.contains { $0.description.hasPrefix(#"sites[0].hosts[2]: "192.0.2.7" is an IP address"#) }, "\(found)")
        #expect(found.count == 2)
    }

    @Test func theCommandLinesCertificateConflictsWithACME() {
        var overrides = ConfigurationOverrides()
        overrides.tlsCertificate = .init("cert.pem", from: "--tls-cert")
        overrides.tlsKey = .init("key.pem", from: "--tls-key")
        let text = configText(server: Self.server(tls: "{\"acme\": {\(Self.acme)}}"))
        do {
            _ = try ConfigurationLoader.parse(Array(text.utf8), baseDirectory: ProjectPaths.root, overrides: overrides)
            Issue.record("accepted --tls-cert with acme")
        } catch {
            #expect(error.problems.contains { $0.description.hasPrefix("server.tls.acme: --tls-cert gives a certificate") }, "\(error)")
        }
    }

    /// The admin listener serves the HTTPS listener's certificates (the first site's), so its TLS
    /// goes with ACME.
    @Test func theAdminListenersTLSGoesWithACME() {
        let server = #"{"admin": {"tls": true}, "tls": {"acme": {\#(Self.acme)}}}"#
        #expect(problems(in: configText(server: server)).isEmpty)
    }

    /// The challenge is answered on the plain listener for a site's host, before the redirect to
    /// HTTPS; an unknown token is a plain-text 404, and pages still redirect.
    @Test func thePlainListenerAnswersHTTP01BeforeRedirecting() throws {
        let folder = try TemporaryDirectory("acme-http01")
        let server = #"{"tls": {"acme": {\#(Self.acme), "storage": "\#(folder.path)/acme"}}}"#
        let configuration = try ConfigurationLoader.parse(
            Array(configText(server: server, log: #"{"enabled": false}"#).utf8), baseDirectory: ProjectPaths.root)
        let tokens = ACMEHTTP01Tokens()
        tokens.publish(token: "tok-1", keyAuthorization: "tok-1.thumbprint", for: "example.com")
        let linkhost = try LinkhostServer(configuration: configuration, acmeChallenges: tokens)
        let answer = try linkhost.inProcess.request("GET", "/.well-known/acme-challenge/tok-1", host: "example.com")
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "tok-1.thumbprint")
        let unknown = try linkhost.inProcess.request("GET", "/.well-known/acme-challenge/nope", host: "example.com")
        #expect(unknown.status == 404)
        #expect(String(decoding: unknown.body, as: UTF8.self) == "No such ACME challenge token.\n")
        #expect(unknown.headers.first { $0.0 == "Content-Type" }?.1 == "text/plain; charset=utf-8")
        #expect(try linkhost.inProcess.request("GET", "/x/1", host: "example.com").status == 308, "pages still go to HTTPS")
        #expect(try linkhost.inProcess.request("GET", "/.well-known/acme-challenge/tok-1", host: "other.example").status != 200, "only for a site's host")
    }
}
