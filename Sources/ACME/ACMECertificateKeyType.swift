/// The kind of key a certificate gets: ECDSA P-256 unless an RSA-only client must be served.
public enum ACMECertificateKeyType: String, Codable, Sendable, CaseIterable {
    case ecdsaP256 = "ecdsa-p256"
    case rsa2048 = "rsa-2048"
}
