import Foundation
import OrderedJSON
import Synchronization

/// The health report's `tls` section: each site host's served certificate and when it expires,
/// whatever its source (files or ACME), read from the listener's certificate store at each report.
///
/// Decision: a certificate that expires within 14 days makes the status `degraded`, files
/// included: nothing renews a file but its owner, and iOS refuses the AASA file of a host whose
/// certificate has expired, so the alert must come while there is time to act.
final class ServedCertificateHealth: Sendable {
    typealias Expiries = @Sendable () -> [(host: String, expiresAt: Int64)]

    /// How close to its expiry a served certificate makes the status `degraded`.
    static let warningSeconds: Int64 = 14 * 86400

    private let source = Mutex<Expiries?>(nil)

    /// Sets where the expiries come from (the HTTPS listener's store); without it the section is absent.
    func connect(_ expiries: @escaping Expiries) {
        source.withLock { $0 = expiries }
    }

    /// Each site host's served certificate's expiry, `nil` without HTTPS.
    private var current: [(host: String, expiresAt: Int64)]? { source.withLock { $0 }?() }

    /// The same, empty without HTTPS.
    var expiries: [(host: String, expiresAt: Int64)] { current ?? [] }

    /// The hosts whose served certificate expires within 14 days of `now` (or has expired).
    func expiringSoon(now: Date = Date()) -> [String] {
        let limit = Int64(now.timeIntervalSince1970) + Self.warningSeconds
        return (current ?? []).filter { $0.expiresAt <= limit }.map(\.host)
    }

    /// The section, `nil` without HTTPS.
    func section(now: Date = Date()) -> JSONValue? {
        guard let served = current else { return nil }
        let seconds = Int64(now.timeIntervalSince1970)
        return .object([
            JSONMember(
                "certificates",
                .array(
                    served.map { entry in
                        .object([
                            JSONMember("host", .string(entry.host)),
                            JSONMember("notAfter", .string(ReloadHistory.timestamp(Date(timeIntervalSince1970: TimeInterval(entry.expiresAt))))),
                            JSONMember("daysLeft", .number(JSONNumber(Int((entry.expiresAt - seconds) / 86400)))),
                        ])
                    })),
            JSONMember("expiringWithin14Days", .array(expiringSoon(now: now).map { .string($0) })),
        ])
    }
}
