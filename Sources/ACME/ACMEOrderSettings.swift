import Foundation

/// What an order asks for and how patiently it polls.
public struct ACMEOrderSettings: Sendable {
    /// The DNS names of the certificate; the first becomes its common name.
    public var names: [String]
    /// The account's contact URIs (`mailto:` addresses), sent when the account is registered.
    public var contact: [String]
    /// Whether the operator agreed to the CA's terms of service (RFC 8555 §7.3 requires it).
    public var termsOfServiceAgreed: Bool
    public var keyType: ACMECertificateKeyType
    /// The pause between polls when the server sends no `Retry-After`, and the shortest one.
    public var pollInterval: TimeInterval
    /// The longest pause between polls, whatever `Retry-After` says.
    public var maximumPollInterval: TimeInterval
    /// How long one `run()` polls before it gives up (the order stays saved and resumable).
    public var timeout: TimeInterval

    public init(
        names: [String], email: String?, termsOfServiceAgreed: Bool, keyType: ACMECertificateKeyType = .ecdsaP256, pollInterval: TimeInterval = 1,
        maximumPollInterval: TimeInterval = 60, timeout: TimeInterval = 600
    ) {
        self.names = names
        contact = email.map { ["mailto:" + $0] } ?? []
        self.termsOfServiceAgreed = termsOfServiceAgreed
        self.keyType = keyType
        self.pollInterval = pollInterval
        self.maximumPollInterval = maximumPollInterval
        self.timeout = timeout
    }
}
