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
    /// Every certificate a handshake of the connection chose, each once: a TLS 1.2 renegotiation
    /// may meet a newer one, and the session that used the first is the same session, so the first
    /// is kept too. Bounded by the swaps during the connection's life.
    private let chosen = Mutex<[ServedCertificate]>([])

    public init(store: CertificateStore) {
        self.store = store
    }

    /// Chooses the certificate for `serverName` and keeps it for the connection's lifetime.
    public func choose(forServerName serverName: String?) -> ServedCertificate? {
        let certificate = store.certificate(forServerName: serverName)
        if let certificate {
            chosen.withLock { chosen in
                chosen.removeAll { $0 === certificate }
                chosen.append(certificate)
            }
        }
        return certificate
    }

    /// The certificate the last handshake chose, `nil` before one ran.
    public var certificate: ServedCertificate? { chosen.withLock { $0.last } }
}
