import TLSCertificates

/// What an HTTPS listener serves: one certificate chain and key in PEM form for every host, or a
/// store that chooses each handshake's certificate by SNI and can be changed while serving. The
/// chain is the server certificate first, then any intermediates.
public struct TLSCredentials: Sendable, Equatable {
    public var certificateChainPEM: String
    public var privateKeyPEM: String
    /// What the handshake may agree on, as a GnuTLS priority string (not OpenSSL cipher names).
    public var priorities: String
    /// The certificates by host, read per handshake; when set, the PEM text above is not used.
    public var certificates: CertificateStore?

    public init(certificateChainPEM: String, privateKeyPEM: String, priorities: String = TLSCredentials.intermediatePriorities) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.priorities = priorities
    }

    /// Serves what `certificates` holds at each handshake (an empty store fails handshakes until
    /// a certificate is installed).
    public init(certificates: CertificateStore, priorities: String = TLSCredentials.intermediatePriorities) {
        self.init(certificateChainPEM: "", privateKeyPEM: "", priorities: priorities)
        self.certificates = certificates
    }

    public static func == (left: TLSCredentials, right: TLSCredentials) -> Bool {
        left.certificateChainPEM == right.certificateChainPEM && left.privateKeyPEM == right.privateKeyPEM && left.priorities == right.priorities
            && left.certificates === right.certificates
    }

    /// A current "intermediate" profile: TLS 1.3 and 1.2 only; AEAD ciphers only (AES-GCM and
    /// ChaCha20-Poly1305, no CBC suites); for 1.2 only ephemeral elliptic-curve key exchange, so every
    /// session has forward secrecy; and the server's order, not the client's. Every client of the
    /// last several years (iOS 12+, Android 7+, current browsers, curl) has such a suite.
    public static let intermediatePriorities =
        "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:%SERVER_PRECEDENCE"
}
