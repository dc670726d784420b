/// A certificate chain and private key in PEM form, for serving HTTPS through libmicrohttpd's
/// GnuTLS. The chain is the server certificate first, then any intermediates.
public struct TLSCredentials: Sendable, Equatable {
    public var certificateChainPEM: String
    public var privateKeyPEM: String

    public init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// TLS 1.2 and 1.3 only, GnuTLS's secure defaults otherwise.
    static let priorities = "NORMAL:-VERS-SSL3.0:-VERS-TLS1.0:-VERS-TLS1.1"
}
