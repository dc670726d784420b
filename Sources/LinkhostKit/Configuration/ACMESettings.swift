import ACME

/// `server.tls.acme`: certificates ordered from an ACME certificate authority (RFC 8555) by
/// HTTP-01, one per site naming the site's hosts, instead of `certificate` and `key` files.
public struct ACMESettings: Sendable, Equatable {
    /// The ACME directory URL, e.g. Let's Encrypt's `https://acme-v02.api.letsencrypt.org/directory`.
    public var directory: String
    /// The account's contact address (sent as `mailto:`).
    public var email: String
    /// The operator agreed to the CA's terms of service; the parser accepts only `true`.
    public var agreeToTerms: Bool
    /// A PEM file trusted for the ACME server's own HTTPS (a private CA); `nil` trusts the system's.
    public var caCertificatePath: String?
    /// The folder of the account, orders and certificates (mode 0700, files 0600).
    public var storagePath: String
    public var keyType: ACMECertificateKeyType
    /// Renew this many days before a certificate expires; `nil` renews at two thirds of its lifetime.
    public var renewDaysBefore: Int?

    /// The storage folder when none is given, beside the default log (`data/linkhost.sqlite`).
    public static let defaultStorage = "data/acme"

    public init(
        directory: String, email: String, agreeToTerms: Bool = true, caCertificatePath: String? = nil, storagePath: String,
        keyType: ACMECertificateKeyType = .ecdsaP256, renewDaysBefore: Int? = nil
    ) {
        self.directory = directory
        self.email = email
        self.agreeToTerms = agreeToTerms
        self.caCertificatePath = caCertificatePath
        self.storagePath = storagePath
        self.keyType = keyType
        self.renewDaysBefore = renewDaysBefore
    }
}
