import Foundation
import OrderedJSON
import Synchronization

/// The manager's records, readable at once from any thread (the health report reads them on the
/// HTTP listener's threads, which must not wait on the manager's actor).
public final class CertificateStatusBoard: Sendable {
    private let current = Mutex<[CertificateRecord]>([])

    public init() {}

    public var records: [CertificateRecord] { current.withLock { $0 } }

    func publish(_ records: [CertificateRecord]) {
        current.withLock { $0 = records }
    }

    /// Whether any certificate is a problem at `now` (see `CertificateRecord.isDegraded`).
    public func isDegraded(at now: Date = Date()) -> Bool {
        records.contains { $0.isDegraded(at: now) }
    }

    /// The health report's `certificates` section: one object per certificate.
    public func healthSection(at now: Date = Date()) -> JSONValue {
        .array(records.map { $0.json(at: now) })
    }
}

extension CertificateRecord {
    /// The record as the health report and `linkhost certificates --json` show it.
    public func json(at now: Date) -> JSONValue {
        func date(_ value: Date?) -> JSONValue { value.map { .string(Self.timestamp($0)) } ?? .null }
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return .object([
            JSONMember("id", .string(id)),
            JSONMember("hosts", .array(hosts.map { .string($0) })),
            JSONMember("source", .string(source.rawValue)),
            JSONMember("issuer", text(issuer)),
            JSONMember("serial", text(serial)),
            JSONMember("notAfter", date(notAfter)),
            JSONMember("nextRenewal", date(nextRenewal)),
            JSONMember("lastError", text(lastError)),
            JSONMember("fix", text(lastErrorFix)),
            JSONMember("failingSince", date(failingSince)),
            JSONMember("degraded", .bool(isDegraded(at: now))),
        ])
    }

    /// RFC 3339 in UTC, to the second.
    public static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
