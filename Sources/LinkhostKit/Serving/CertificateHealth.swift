import OrderedJSON
import Synchronization

/// The certificates' part of the health report and the way to renew them now, filled in by
/// whoever manages the certificates (`linkhost serve` with `server.tls.acme`): LinkhostKit itself
/// neither orders nor renews.
public final class CertificateHealth: Sendable {
    /// The report's `certificates` section and whether it makes the status `degraded`.
    public typealias Report = @Sendable () -> (section: JSONValue, degraded: Bool)

    private let report = Mutex<Report?>(nil)
    private let renewal = Mutex<(@Sendable () -> Void)?>(nil)

    public init() {}

    /// Sets what the health report shows and what `renew()` does.
    public func connect(report: @escaping Report, renew: @escaping @Sendable () -> Void) {
        self.report.withLock { $0 = report }
        renewal.withLock { $0 = renew }
    }

    /// The current report, `nil` when nothing manages certificates.
    public var current: (section: JSONValue, degraded: Bool)? { report.withLock { $0 }?() }

    /// Asks for every managed certificate to be renewed now; `false` when nothing manages them.
    @discardableResult
    public func renew() -> Bool {
        guard let renew = renewal.withLock({ $0 }) else { return false }
        renew()
        return true
    }
}
