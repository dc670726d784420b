internal import CGnuTLS
import Glibc

/// A certificate chain and its private key parsed into the structures GnuTLS signs and sends a
/// handshake with, ready for the certificate callback to hand over as they are.
///
/// GnuTLS never frees what the callback returns (its manual, `gnutls_certificate_set_retrieve_function2`),
/// so this object owns them and frees them when it goes: a connection whose handshake chose it
/// holds it until it closes (see `ConnectionCertificate`), the store while it serves it. GnuTLS
/// credentials may be shared by sessions on many threads once made; nothing here changes after init.
public final class ServedCertificate: @unchecked Sendable {
    /// The chain in the order sent, server certificate first.
    let chain: UnsafeMutablePointer<gnutls_pcert_st>
    let chainLength: UInt32
    let key: gnutls_privkey_t
    /// The chain as given, for callers that show or compare what is served.
    public let chainPEM: String
    /// When the server certificate expires (its notAfter, Unix time), `nil` when GnuTLS cannot say.
    public let expiresAt: Int64?

    /// The most certificates a chain may hold (a server certificate and its intermediates).
    static let chainCapacity: UInt32 = 16

    /// Parses `chainPEM` (the server certificate first, then any intermediates, as sent: RFC 8446
    /// §4.4.2) and `keyPEM`, and checks that the key is the first certificate's.
    public init(chainPEM: String, keyPEM: String) throws(TLSCertificateError) {
        self.chainPEM = chainPEM
        let chain = UnsafeMutablePointer<gnutls_pcert_st>.allocate(capacity: Int(Self.chainCapacity))
        var length = Self.chainCapacity
        let imported = Self.withDatum(chainPEM) { datum in
            gnutls_pcert_list_import_x509_raw(chain, &length, &datum, GNUTLS_X509_FMT_PEM, 0)
        }
        guard imported >= 0, length > 0 else {
            chain.deallocate()
            throw TLSCertificateError(
                imported == GNUTLS_E_SHORT_MEMORY_BUFFER
                    ? "the certificate chain holds more than \(Self.chainCapacity) certificates"
                    : "the certificate chain cannot be read: \(Self.reason(imported < 0 ? imported : GNUTLS_E_NO_CERTIFICATE_FOUND))")
        }
        var key: gnutls_privkey_t?
        var status = gnutls_privkey_init(&key)
        if status >= 0, let key {
            status = Self.withDatum(keyPEM) { datum in gnutls_privkey_import_x509_raw(key, &datum, GNUTLS_X509_FMT_PEM, nil, 0) }
        }
        guard status >= 0, let key else {
            Self.free(chain, length)
            if let key { gnutls_privkey_deinit(key) }
            throw TLSCertificateError("the private key cannot be read: \(Self.reason(status))")
        }
        guard let id = Self.keyID(ofPublicKey: chain[0].pubkey), Self.keyID(ofPrivateKey: key) == id else {
            Self.free(chain, length)
            gnutls_privkey_deinit(key)
            throw TLSCertificateError("the private key does not belong to the certificate (the first of the chain)")
        }
        self.chain = chain
        chainLength = length
        self.key = key
        expiresAt = Self.expiry(of: &chain[0].cert)
    }

    deinit {
        Self.free(chain, chainLength)
        gnutls_privkey_deinit(key)
    }

    /// The SHA-256 key identifier of a public key, or `nil` when GnuTLS cannot compute it. (GnuTLS's
    /// key handles are all `OpaquePointer` in Swift: the labels keep the two apart.)
    private static func keyID(ofPublicKey publicKey: gnutls_pubkey_t?) -> [UInt8]? {
        guard let publicKey else { return nil }
        var id = [UInt8](repeating: 0, count: 64)
        var size = id.count
        guard gnutls_pubkey_get_key_id(publicKey, GNUTLS_KEYID_USE_SHA256.rawValue, &id, &size) >= 0 else { return nil }
        return Array(id.prefix(size))
    }

    private static func keyID(ofPrivateKey privateKey: gnutls_privkey_t) -> [UInt8]? {
        var publicKey: gnutls_pubkey_t?
        guard gnutls_pubkey_init(&publicKey) >= 0, let publicKey else { return nil }
        defer { gnutls_pubkey_deinit(publicKey) }
        guard gnutls_pubkey_import_privkey(publicKey, privateKey, 0, 0) >= 0 else { return nil }
        return keyID(ofPublicKey: publicKey)
    }

    /// The notAfter of a DER certificate, Unix time.
    private static func expiry(of der: inout gnutls_datum_t) -> Int64? {
        var certificate: gnutls_x509_crt_t?
        guard gnutls_x509_crt_init(&certificate) >= 0, let certificate else { return nil }
        defer { gnutls_x509_crt_deinit(certificate) }
        guard gnutls_x509_crt_import(certificate, &der, GNUTLS_X509_FMT_DER) >= 0 else { return nil }
        let time = gnutls_x509_crt_get_expiration_time(certificate)
        return time == -1 ? nil : Int64(time)
    }

    private static func free(_ chain: UnsafeMutablePointer<gnutls_pcert_st>, _ length: UInt32) {
        for index in 0..<Int(length) { gnutls_pcert_deinit(chain + index) }
        chain.deallocate()
    }

    /// GnuTLS's words for an error code.
    static func reason(_ code: Int32) -> String {
        gnutls_strerror(code).map { String(cString: $0) } ?? "GnuTLS error \(code)"
    }

    /// `text` as a GnuTLS datum for the length of `body` (GnuTLS copies what it keeps).
    private static func withDatum<Result>(_ text: String, _ body: (inout gnutls_datum_t) -> Result) -> Result {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return body(&datum)
        }
    }
}
