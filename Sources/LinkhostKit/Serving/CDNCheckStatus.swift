import CDNCheck
import Foundation

/// The periodic CDN check's state, as a value: what `/healthz` shows and what a metrics exporter
/// reads (per host `state.metricValue` and `age`, the run's `checkedAt`).
public struct CDNCheckStatus: Sendable {
    public let settings: CDNCheckSettings
    /// The last finished run, `nil` before the first one ends.
    public let latest: CDNCheckReport?
    /// Whether a run is under way.
    public let isChecking: Bool
    /// When the next run is due, once one has ended.
    public let nextCheckAt: Date?
}
