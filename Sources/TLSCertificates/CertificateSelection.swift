internal import CGnuTLS
import Synchronization

/// The GnuTLS certificate callback a TLS listener installs (libmicrohttpd's
/// `MHD_OPTION_HTTPS_CERT_CALLBACK`), and how it finds its way back to Swift.
///
/// Decision: a `@convention(c)` function plus one process-wide resolver, not a C shim. GnuTLS calls
/// the function with the session alone (no context pointer of ours), and libmicrohttpd 0.9.75 sets
/// the session's pointer (`gnutls_session_set_ptr`) to its connection before the handshake. The
/// server module, the only one that knows libmicrohttpd, installs the resolver that turns that
/// pointer into the connection's `ConnectionCertificate` (it keeps one in its per-connection state,
/// made when libmicrohttpd reports the connection started, before any byte is read). So this module
/// never sees a libmicrohttpd type, the server module never sees a GnuTLS one, and every listener in
/// the process, each with its own store, shares the one function.
public enum CertificateSelection {
    /// From the pointer a session carries to the connection's certificate link, `nil` when unknown.
    public typealias Resolver = @Sendable (UnsafeMutableRawPointer) -> ConnectionCertificate?

    private static let resolver = Mutex<Resolver?>(nil)

    /// Makes `resolver` the one the callback uses (a server module installs it before its first TLS
    /// listener starts; installing again replaces it).
    public static func install(resolver: @escaping Resolver) {
        self.resolver.withLock { $0 = resolver }
    }

    /// The callback's address, as libmicrohttpd's option takes it.
    public static var callbackAddress: UnsafeMutableRawPointer {
        unsafeBitCast(callback, to: UnsafeMutableRawPointer.self)
    }

    /// GnuTLS asks for the server's certificate once per handshake: the name the client sent, looked
    /// up in the connection's store. A handshake the store has nothing for gets no certificate,
    /// and GnuTLS ends it (insufficient credentials).
    static let callback: linkhost_gnutls_retrieve_function = { session, _, _, _, _, chain, chainLength, key in
        guard let chain, let chainLength, let key else { return -1 }
        chainLength.pointee = 0
        guard let session, let pointer = gnutls_session_get_ptr(session), let resolve = resolver.withLock({ $0 }),
            let connection = resolve(pointer),
            let certificate = connection.choose(forServerName: serverName(of: session))
        else { return 0 }
        chain.pointee = certificate.chain
        chainLength.pointee = certificate.chainLength
        key.pointee = certificate.key
        return 0
    }

    /// The DNS name the client sent (RFC 6066 §3 allows one), `nil` without SNI or when it is longer
    /// than a DNS name can be.
    static func serverName(of session: gnutls_session_t) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        var size = buffer.count
        var type: UInt32 = 0
        guard gnutls_server_name_get(session, &buffer, &size, &type, 0) == GNUTLS_E_SUCCESS, type == GNUTLS_NAME_DNS.rawValue else { return nil }
        let name = buffer.prefix(min(size, buffer.count)).prefix { $0 != 0 }
        return name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
    }
}
