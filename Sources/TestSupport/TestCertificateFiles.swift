import Foundation

/// A CA and a server certificate for 127.0.0.1 made with openssl, as an operator would make them:
/// for HTTPS servers the tests start (Pebble's own listener, a TLS HTTPServer).
public struct TestCertificateFiles: Sendable {
    public let caFile: String
    public let certificateFile: String
    public let keyFile: String

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(in folder: TemporaryDirectory) throws {
        caFile = folder.path + "/ca.pem"
        certificateFile = folder.path + "/cert.pem"
        keyFile = folder.path + "/key.pem"
        let caKey = folder.path + "/ca-key.pem"
        let request = folder.path + "/cert.csr"
        let extensions = try folder.write(
            "cert.ext", "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\n")
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + ec + ["-keyout", caKey, "-out", caFile, "-days", "2", "-subj", "/CN=linkhost test CA"])
        try Self.openssl(["req"] + ec + ["-keyout", keyFile, "-out", request, "-subj", "/CN=127.0.0.1"])
        try Self.openssl([
            "x509", "-req", "-in", request, "-CA", caFile, "-CAkey", caKey, "-set_serial", "1", "-days", "2", "-extfile", extensions, "-out", certificateFile,
        ])
    }

    /// The base64 of the server certificate a handshake with `serverName` got (none sent when
    /// `nil`) from 127.0.0.1:`port`, verified against `caFile`; `nil` when the handshake failed.
    public static func servedCertificate(port: Int, serverName: String?, caFile: String) throws -> String? {
        let name = serverName.map { ["-servername", $0] } ?? ["-noservername"]
        let run = try ChildProcess.run("openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", caFile] + name, timeoutSeconds: 20)
        guard run.output.contains("Verify return code: 0 (ok)") else { return nil }
        return leafBase64(run.output)
    }

    /// The first certificate of a PEM text, as base64 without line breaks.
    public static func leafBase64(_ pem: String) -> String? {
        guard let begin = pem.range(of: "-----BEGIN CERTIFICATE-----"),
            let end = pem.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<pem.endIndex)
        else { return nil }
        return pem[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace }
    }

    private static func openssl(_ arguments: [String]) throws {
        let run = try ChildProcess.run("openssl", arguments)
        guard run.status == 0 else { throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(run.error)") }
    }
}
