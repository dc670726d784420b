import ACME
import Foundation

/// What the manager orders with: the CA, the account, the storage, and when to renew.
public struct CertificateIssuingSettings: Sendable {
    public var directoryURL: String
    public var email: String
    public var termsOfServiceAgreed: Bool
    /// A PEM file trusted for the ACME server's HTTPS; `nil` trusts the system's store.
    public var caCertificateFile: String?
    public var storageFolder: String
    public var keyType: ACMECertificateKeyType
    /// Days before expiry to renew; `nil` renews at two thirds of the lifetime.
    public var renewDaysBefore: Int?
    public var backoff = ACMEBackoff()
    /// How long one order may poll before it is given up (and tried again by the backoff).
    public var orderTimeout: TimeInterval = 600
    /// The pause between polls when the CA sends no `Retry-After`.
    public var pollInterval: TimeInterval = 1

    public init(
        directoryURL: String, email: String, termsOfServiceAgreed: Bool, caCertificateFile: String?, storageFolder: String,
        keyType: ACMECertificateKeyType = .ecdsaP256, renewDaysBefore: Int? = nil
    ) {
        self.directoryURL = directoryURL
        self.email = email
        self.termsOfServiceAgreed = termsOfServiceAgreed
        self.caCertificateFile = caCertificateFile
        self.storageFolder = storageFolder
        self.keyType = keyType
        self.renewDaysBefore = renewDaysBefore
    }
}
