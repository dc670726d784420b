import Foundation

/// What is known about one certificate: where it came from, who issued it, when it expires, when
/// it is renewed, and the last error with its fix. Kept in the ACME storage (`status.json`) so
/// `linkhost certificates` can show it without the server.
public struct CertificateRecord: Codable, Sendable, Equatable {
    public enum Source: String, Codable, Sendable {
        case acme
        case file
    }

    public var id: String
    public var hosts: [String]
    public var source: Source
    public var issuer: String?
    /// The serial number, colon-separated hex as openssl prints it.
    public var serial: String?
    public var notBefore: Date?
    public var notAfter: Date?
    /// When the manager renews it (or tries again after a failure).
    public var nextRenewal: Date?
    public var lastError: String?
    /// What to check or change about `lastError`.
    public var lastErrorFix: String?
    /// Since when every attempt failed; `nil` after a success.
    public var failingSince: Date?
    /// Failed attempts in a row.
    public var failures: Int = 0
    /// When the served certificate was installed last (by this process).
    public var installedAt: Date?

    public init(id: String, hosts: [String], source: Source) {
        self.id = id
        self.hosts = hosts
        self.source = source
    }

    /// The record's certificate facts from `certificate`.
    public mutating func describe(_ certificate: CertificateFacts) {
        issuer = certificate.issuer
        serial = certificate.serial
        notBefore = certificate.notBefore
        notAfter = certificate.notAfter
    }

    /// Whether the health report calls this certificate a problem at `now`: none served yet, it
    /// expires within 14 days, or renewal has failed for a day.
    public func isDegraded(at now: Date) -> Bool {
        guard let notAfter, installedAt != nil || source == .file else { return true }
        if notAfter.timeIntervalSince(now) < 14 * 86_400 { return true }
        if let failingSince, now.timeIntervalSince(failingSince) >= 86_400 { return true }
        return false
    }
}
