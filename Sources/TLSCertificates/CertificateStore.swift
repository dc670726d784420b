import Synchronization

/// The certificates an HTTPS listener serves, by host name: each handshake reads it once (the SNI
/// name it sent, RFC 6066 §3) and gets that host's certificate, or the default one for a handshake
/// without SNI or with a name the store does not know.
///
/// Names are exact and case-insensitive (DNS names compare so, RFC 4343); a wildcard host of the
/// configuration is not matched here and gets the default. Every change replaces the whole table
/// in one step under the lock, so a handshake sees the table before or after a change, never half
/// of one. A certificate the store stops serving is freed once the last connection whose handshake
/// chose it has closed (`ConnectionCertificate`): nothing is retired by age or by count.
public final class CertificateStore: Sendable {
    private struct Table: Sendable {
        var byName: [String: ServedCertificate] = [:]
        var fallback: ServedCertificate?
    }

    private let table = Mutex(Table())

    public init() {}

    /// A store serving `certificate` for every host.
    public convenience init(serving certificate: ServedCertificate) {
        self.init()
        replaceAll(default: certificate)
    }

    /// The certificate for a handshake that sent `serverName` (`nil`: no SNI).
    public func certificate(forServerName serverName: String?) -> ServedCertificate? {
        let key = serverName.map(Self.key)
        return table.withLock { table in key.flatMap { table.byName[$0] } ?? table.fallback }
    }

    /// Serves `certificate` for `hosts` from the next handshake on, in place of what they had;
    /// `isDefault` also makes it the certificate of handshakes without SNI or with an unknown name.
    public func install(_ certificate: ServedCertificate, for hosts: [String], isDefault: Bool) {
        let keys = hosts.map(Self.key)
        table.withLock { table in
            for key in keys { table.byName[key] = certificate }
            if isDefault { table.fallback = certificate }
        }
    }

    /// Serves `certificate` for every host (one certificate and key given as files), forgetting
    /// any per-host ones.
    public func replaceAll(default certificate: ServedCertificate) {
        table.withLock { $0 = Table(byName: [:], fallback: certificate) }
    }

    /// Whether a handshake would find no certificate at all (nothing installed yet).
    public var isEmpty: Bool {
        table.withLock { $0.fallback == nil && $0.byName.isEmpty }
    }

    /// The names with a certificate of their own, lowercased and sorted.
    public var hostNames: [String] {
        table.withLock { $0.byName.keys.sorted() }
    }

    /// The default certificate (`nil` before one is installed).
    public var defaultCertificate: ServedCertificate? {
        table.withLock { $0.fallback }
    }

    /// DNS names compare without regard to ASCII case; SNI carries A-labels, so ASCII is all there is.
    private static func key(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
