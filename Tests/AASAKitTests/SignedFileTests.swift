import AASAKit
import Foundation
import TestSupport
import Testing

/// AASA files in a CMS (PKCS #7) signature, as iOS 8 wanted them: made here with OpenSSL in a
/// temporary folder, read, validated (AASA040) and matched; broken envelopes are reported, never
/// a trap.
@Suite("Signed files", .ownThread)
struct SignedFileTests {
    static let json = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/buy/*"}]}]}}"#

    /// A folder with a throwaway key and certificate and the JSON to sign.
    final class Signer: Sendable {
        let folder: TemporaryDirectory
        let openssl: String

        init() throws {
            folder = try TemporaryDirectory("linkhost-cms")
            openssl = try Tool.path("openssl")
            _ = try folder.write("aasa.json", SignedFileTests.json)
            let made = try ChildProcess.run(
                openssl,
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=example.com", "-days", "2",
                    "-keyout", folder.path + "/key.pem", "-out", folder.path + "/cert.pem",
                ])
            #expect(made.status == 0, "\(made.error)")
        }

        /// Signs the JSON with `arguments` (an openssl command and its options) and returns the file's bytes.
        func sign(_ arguments: [String]) throws -> [UInt8] {
            let output = folder.path + "/signed" + arguments.joined() + ".der"
            let result = try ChildProcess.run(
                openssl,
                arguments + [
                    "-in", folder.path + "/aasa.json", "-signer", folder.path + "/cert.pem", "-inkey", folder.path + "/key.pem", "-outform", "DER",
                    "-out", output,
                ])
            #expect(result.status == 0, "\(result.error)")
            return Array(try #require(FileManager.default.contents(atPath: output)))
        }
    }

    static let signings: [[String]] = [
        ["cms", "-sign", "-nodetach", "-binary"],  // DER, definite lengths
        ["smime", "-sign", "-nodetach", "-noattr"],  // the command of the iOS 8 era (MIME-canonical text)
        ["cms", "-sign", "-nodetach", "-stream"],  // BER: indefinite lengths, content in chunks
    ]

    @Test(arguments: signings)
    func signedFilesAreReadValidatedAndMatched(signing: [String]) throws {
        let bytes = try Signer().sign(signing)
        #expect(bytes.first == 0x30)
        let report = AASAValidator().validate(bytes: bytes)
        let document = try #require(report.document, "\(report.findings)")
        #expect(document.isSigned)
        #expect(report.findings.map(\.code) == [.signedFile])
        #expect(report.findings.first?.severity == .warning)
        #expect(report.findings.first?.message.contains("obsolete") == true)
        let matcher = AASAMatcher(document)
        #expect(try matcher.decision("https://example.com/buy/42") == .match)
        #expect(try matcher.decision("https://example.com/sell/42") == .none)
    }

    @Test func aDetachedSignatureHoldsNoJSON() throws {
        let bytes = try Signer().sign(["cms", "-sign", "-binary"])
        let report = AASAValidator().validate(bytes: bytes)
        #expect(report.document == nil)
        #expect(report.findings.map(\.code) == [.notJSON])
        #expect(report.findings.first?.message.contains("the signature is detached") == true, "\(report.findings)")
    }

    /// Every truncation and thousands of mutations of a real envelope: an answer every time.
    @Test func brokenEnvelopesAreReportedNeverATrap() throws {
        let signer = try Signer()
        let envelopes = try Self.signings.map { try signer.sign($0) }
        for envelope in envelopes {
            for length in stride(from: 0, to: envelope.count, by: 1) {
                let report = AASAValidator().validate(bytes: Array(envelope.prefix(length)))
                #expect(report.document == nil, "a prefix of \(length) bytes was read as a file")
            }
        }
        var random = SeededGenerator(seed: 40)
        var unwrapped = 0
        for round in 0..<6_000 {
            var bytes = envelopes[round % envelopes.count]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes[position] ^= 0x80
                default: bytes.remove(at: position)
                }
            }
            let report = AASAValidator().validate(bytes: bytes)
            #expect(report.document != nil || report.hasErrors)
            if report.document?.isSigned == true { unwrapped += 1 }
        }
        // Many mutations hit the signature or certificate and leave the content readable.
        #expect(unwrapped > 500)
    }

    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]

    /// A minimal SignedData envelope built by hand (short DER lengths, no certificates or signers),
    /// for tests that should not need OpenSSL.
    static func handMadeEnvelope(_ json: String) -> [UInt8] {
        func tlv(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag, UInt8(body.count)] + body }
        let encapsulated = tlv(0x30, [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01] + tlv(0xA0, tlv(0x04, Array(json.utf8))))
        let signedData = tlv(0x30, tlv(0x02, [1]) + tlv(0x31, []) + encapsulated + tlv(0x31, []))
        return tlv(0x30, signedDataOID + tlv(0xA0, signedData))
    }

    @Test func handMadeEnvelopesAndLookalikes() throws {
        let oid = Self.signedDataOID
        #expect(try AASADocument(bytes: Self.handMadeEnvelope(#"{"applinks": {}}"#)).isSigned)
        // Deep indefinite nesting where the content should be: refused, not recursed without end.
        let deep = [0x30, 0x80] + oid + [0xA0, 0x80] + Array(repeating: [0x30, 0x80], count: 5_000).flatMap { $0 }
        let refused = AASAValidator().validate(bytes: deep).findings
        #expect(refused.map(\.code) == [.notJSON])
        #expect(refused.first?.message.contains("nests too deep") == true, "\(refused)")
        // A file cut short says so.
        let truncated = AASAValidator().validate(bytes: Array(Self.handMadeEnvelope(#"{"applinks": {}}"#).dropLast(3))).findings
        #expect(truncated.first?.message.contains("cut short") == true, "\(truncated)")
        // JSON that starts with the byte 0x30 ("0") is JSON, not an envelope.
        #expect(AASAValidator().validate(bytes: Array("0".utf8)).findings.map(\.code) == [.rootNotObject])
        // Random bytes behind a valid-looking header never trap.
        var random = SeededGenerator(seed: 41)
        for _ in 0..<4_000 {
            let tail = (0..<Int.random(in: 0...80, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let report = AASAValidator().validate(bytes: [0x30, 0x80] + oid + tail)
            #expect(report.document == nil || report.document?.isSigned == true)
        }
    }
}
