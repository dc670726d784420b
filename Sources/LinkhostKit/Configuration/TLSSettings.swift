import AASAKit
import HTTPServing
import LinkLog
import LinkRules
import OrderedJSON

/// The `server.tls` object: certificate, key, port, and what the plain-HTTP listener does.
public struct TLSSettings: Sendable, Equatable {
    /// What the plain-HTTP listener (`server.listen`) does when HTTPS is on.
    public enum PlainHTTP: String, Sendable, CaseIterable {
        /// Serve the AASA file and health as usual; redirect pages to HTTPS (308).
        case redirect
        /// Serve everything over plain HTTP too.
        case serve
        /// No plain-HTTP listener at all.
        case off
    }

    public var certificatePath: String
    public var keyPath: String
    /// The PEM text, read when the config is loaded.
    public var certificatePEM: String
    public var keyPEM: String
    public var port: Int
    /// The port in redirect URLs, when clients reach HTTPS through another port (a container
    /// mapping, a load balancer); defaults to `port`.
    public var publicPort: Int?
    public var plainHTTP: PlainHTTP
    /// `Strict-Transport-Security` value; `nil` sends none.
    public var hsts: String?
    /// A GnuTLS priority string replacing the built-in intermediate profile (`server.tls.priorities`);
    /// `nil` keeps the profile (`TLSCredentials.intermediatePriorities`).
    public var priorities: String?
    /// `server.tls.acme`: the certificates come from an ACME CA; the paths are then empty and the
    /// PEM text is what the ACME storage held when the server started (empty before the first).
    public var acme: ACMESettings?

    public init(
        certificatePath: String, keyPath: String, certificatePEM: String, keyPEM: String, port: Int = 8443, publicPort: Int? = nil,
        plainHTTP: PlainHTTP = .redirect, hsts: String? = "max-age=31536000", priorities: String? = nil,
        acme: ACMESettings? = nil
    ) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
        self.port = port
        self.publicPort = publicPort
        self.plainHTTP = plainHTTP
        self.hsts = hsts
        self.priorities = priorities
        self.acme = acme
    }

    /// Reads PEM files, checking they hold what their names say.
    public static func load(certificatePath: String, keyPath: String) -> Result<(certificate: String, key: String), TLSFileProblem> {
        guard let certificate = try? String(contentsOfFile: certificatePath, encoding: .utf8) else {
            return .failure(TLSFileProblem(which: .certificate, problem: "cannot read \(certificatePath)"))
        }
        guard certificate.contains("-----BEGIN CERTIFICATE-----") else {
            return .failure(TLSFileProblem(which: .certificate, problem: "\(certificatePath) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"))
        }
        guard let key = try? String(contentsOfFile: keyPath, encoding: .utf8) else {
            return .failure(TLSFileProblem(which: .key, problem: "cannot read \(keyPath)"))
        }
        guard key.contains("PRIVATE KEY-----") else {
            return .failure(TLSFileProblem(which: .key, problem: "\(keyPath) holds no PEM private key (-----BEGIN … PRIVATE KEY-----)"))
        }
        return .success((certificate, key))
    }
}

/// Why a certificate or key file cannot be used.
public struct TLSFileProblem: Error, Sendable {
    public enum Which: Sendable { case certificate, key }
    public let which: Which
    public let problem: String
}
