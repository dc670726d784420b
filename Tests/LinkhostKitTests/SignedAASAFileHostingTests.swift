import AASAKit
import Foundation
import LinkhostKit
import Logging
import Synchronization
import TestSupport
import Testing

/// A site's `aasa.file` in a CMS (PKCS #7) signature, as iOS 8 wanted it, is read as `check` and
/// `match` read one: the server answers with the JSON inside it, over real HTTP, and warns at start
/// that signing is obsolete (AASA040). Files are signed with OpenSSL in a temporary folder.
@Suite("Signed aasa.file in a config", .ownThread)
struct SignedAASAFileHostingTests {
    static let json = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/x/?*"}]}]}}"#

    /// Writes the JSON, a throwaway key and certificate, and the JSON signed with `signing` as
    /// `aasa.p7m` in `folder`.
    static func writeSignedFile(in folder: TemporaryDirectory, signing: [String]) throws {
        let openssl = try Tool.path("openssl")
        _ = try folder.write("aasa.json", json)
        let made = try ChildProcess.run(
            openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=example.com", "-days", "2", "-keyout",
                folder.path + "/key.pem", "-out", folder.path + "/cert.pem",
            ])
        #expect(made.status == 0, "\(made.error)")
        let signed = try ChildProcess.run(
            openssl,
            signing + [
                "-in", folder.path + "/aasa.json", "-signer", folder.path + "/cert.pem", "-inkey", folder.path + "/key.pem", "-outform", "DER", "-out",
                folder.path + "/aasa.p7m",
            ])
        #expect(signed.status == 0, "\(signed.error)")
    }

    static func configuration(in folder: TemporaryDirectory) throws -> (text: String, path: String) {
        let site = exampleSite.replacingOccurrences(of: #""links": ["#, with: #""aasa": {"file": "aasa.p7m"}, "links": ["#)
        let text = configText(sites: [site], server: #"{"publicDirectory": "\#(ProjectPaths.root)/Public", "limits": {"threads": 2}}"#)
        return (text, try folder.write("config.json", text))
    }

    @Test(arguments: [
        ["cms", "-sign", "-nodetach", "-binary"],
        ["smime", "-sign", "-nodetach", "-noattr"],  // the iOS 8 era's command
    ])
    func theServerServesTheJSONInsideAndWarns(signing: [String]) throws {
        let folder = try TemporaryDirectory("linkhost-signed-aasa")
        try Self.writeSignedFile(in: folder, signing: signing)
        let (text, path) = try Self.configuration(in: folder)
        var overrides = ConfigurationOverrides()
        overrides.listenAddress = .init("127.0.0.1", from: "the test")
        overrides.port = .init(0, from: "the test")
        let configuration = try ConfigurationLoader.parse(Array(text.utf8), source: path, baseDirectory: folder.path, overrides: overrides)
        #expect(configuration.sites[0].aasa.bytes == Array(Self.json.utf8))
        #expect(configuration.sites[0].aasa.unwrappedSignature?.code == .signedFile)

        let log = CapturedLog()
        let server = try LinkhostServer(configuration: configuration, logger: Logger(label: "linkhost.test") { _ in log })
        defer { server.stop() }
        for aasaPath in AASAHostingTests.aasaPaths {
            let response = try server.inProcess.request("GET", aasaPath, host: "example.com", headers: [("User-Agent", "AASA-Bot/1.0.0")])
            expectServedExactly(response, Array(Self.json.utf8))
        }
        let warnings = log.lines.filter { $0.level == .warning }.map(\.message)
        #expect(warnings.count == 1, "\(log.lines)")
        #expect(
            warnings.first?.contains("site example: AASA040 \(folder.path)/aasa.p7m: the file is JSON inside a CMS (PKCS #7) signature") == true, "\(warnings)")
        #expect(warnings.first?.contains("the signature is obsolete") == true)

        // check names it too, though the served bytes are plain JSON now.
        let findings = LinkhostCheck.check(configPath: path)
        #expect(findings.contains { $0.code == "AASA040" && $0.severity == .warning && $0.site == "example" }, "\(findings)")
        #expect(!findings.contains { $0.severity == .error }, "\(findings)")
    }

    @Test func aSignatureWithoutTheJSONIsRefusedWithTheReason() throws {
        let folder = try TemporaryDirectory("linkhost-signed-aasa")
        try Self.writeSignedFile(in: folder, signing: ["cms", "-sign", "-binary"])  // detached: the JSON is not in the file
        let (text, _) = try Self.configuration(in: folder)
        let found = problems(in: text, baseDirectory: folder.path)
        #expect(found.first?.path.description == "sites[0].aasa.file", "\(found)")
        #expect(found.first?.problem.contains("signed envelope but cannot be unwrapped") == true, "\(found)")
        #expect(found.first?.problem.contains("detached") == true, "\(found)")
    }
}

/// Every log line a logger writes, for tests that expect a warning.
final class CapturedLog: LogHandler, Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
    }

    private let captured = Mutex<[Line]>([])

    var lines: [Line] { captured.withLock { $0 } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    func log(event: LogEvent) {
        captured.withLock { $0.append(Line(level: event.level, message: "\(event.message)")) }
    }
}
