import Synchronization

/// One TLS connection's link to its listener's store, and the certificate its handshake chose.
///
/// Holding the chosen certificate here is what bounds its life: GnuTLS keeps pointers into it for
/// the whole session and never frees them, so it must outlive the session. The connection's owner
/// (HTTPServing's per-connection state) drops this when libmicrohttpd reports the connection
/// closed, which 0.9.75 does after `gnutls_deinit` of its session (daemon.c,
/// `MHD_cleanup_connections`); so a swapped-out certificate lives exactly as long as the store or
/// the last session that was handed it.
public final class ConnectionCertificate: Sendable {
    public let store: CertificateStore
    private let chosen = Mutex<ServedCertificate?>(nil)

    public init(store: CertificateStore) {
        self.store = store
    }

    /// Chooses the certificate for `serverName` and keeps it for the connection's lifetime (a
    /// second handshake on the connection, a TLS 1.2 renegotiation, replaces it: the first
    /// session is gone by then).
    public func choose(forServerName serverName: String?) -> ServedCertificate? {
        let certificate = store.certificate(forServerName: serverName)
        chosen.withLock { $0 = certificate }
        return certificate
    }

    /// The certificate the handshake chose, `nil` before it ran.
    public var certificate: ServedCertificate? { chosen.withLock { $0 } }
}
