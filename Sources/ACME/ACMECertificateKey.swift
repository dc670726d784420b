import Crypto
import X509
import _CryptoExtras

/// A certificate's private key, made fresh for each order (a renewal never reuses a key) and kept
/// in PEM.
public struct ACMECertificateKey: Sendable {
    public let type: ACMECertificateKeyType
    public let privateKey: Certificate.PrivateKey
    public let pemRepresentation: String

    /// A new key of `type`.
    public static func generate(_ type: ACMECertificateKeyType) throws(ACMEError) -> ACMECertificateKey {
        do {
            switch type {
            case .ecdsaP256: return ACMECertificateKey(p256: P256.Signing.PrivateKey())
            case .rsa2048: return ACMECertificateKey(rsa: try _RSA.Signing.PrivateKey(keySize: .bits2048))
            }
        } catch {
            throw ACMEError.storage(path: "certificate key", detail: "could not make a \(type.rawValue) key: \(error)")
        }
    }

    /// A key read back from `pemRepresentation` (a P-256 or an RSA key, in any of their PEM forms).
    public init(pemRepresentation: String) throws(ACMEError) {
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pemRepresentation) {
            self.init(p256: key)
        } else if let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pemRepresentation) {
            self.init(rsa: key)
        } else {
            throw ACMEError.storage(path: "certificate key", detail: "not a P-256 or RSA private key in PEM")
        }
    }

    private init(p256 key: P256.Signing.PrivateKey) {
        type = .ecdsaP256
        privateKey = Certificate.PrivateKey(key)
        pemRepresentation = key.pemRepresentation
    }

    private init(rsa key: _RSA.Signing.PrivateKey) {
        type = .rsa2048
        privateKey = Certificate.PrivateKey(key)
        pemRepresentation = key.pemRepresentation
    }

    /// The signature algorithm of the CSR: SHA-256 with the key's own scheme.
    var signatureAlgorithm: Certificate.SignatureAlgorithm {
        switch type {
        case .ecdsaP256: .ecdsaWithSHA256
        case .rsa2048: .sha256WithRSAEncryption
        }
    }
}

/// The kind of key a certificate gets: ECDSA P-256 unless an RSA-only client must be served.
public enum ACMECertificateKeyType: String, Codable, Sendable, CaseIterable {
    case ecdsaP256 = "ecdsa-p256"
    case rsa2048 = "rsa-2048"
}
