import Foundation

/// How many reloads a running server applied and refused, and whether the last one failed: what the
/// admin listener's metrics report (its `/healthz` shows the same, with the last one's problems).
public struct ReloadSummary: Sendable, Equatable {
    /// The serving set in use: 1 at start, one more per applied reload.
    public let generation: Int
    public let applied: Int
    public let refused: Int
    /// Whether the last reload was refused, so the config file says more than is served.
    public let lastFailed: Bool
    /// When the last reload was asked for, `nil` before the first.
    public let lastAt: Date?
}
