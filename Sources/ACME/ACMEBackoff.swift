import Foundation

/// When to try a failed order again: never before the server's `Retry-After` (a rate limit's
/// included), and otherwise doubling from `initial` to `maximum` with each failure in a row, so an
/// unreachable or refusing CA is not hammered.
public struct ACMEBackoff: Sendable, Equatable {
    public var initial: TimeInterval
    public var maximum: TimeInterval

    public init(initial: TimeInterval = 60, maximum: TimeInterval = 24 * 3600) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The time of the next attempt after `error`, the `failures`-th failure in a row (1 for the first).
    public func nextAttempt(after error: ACMEError, failures: Int, now: Date) -> Date {
        let doublings = Double(min(max(failures, 1) - 1, 40))
        let own = now.addingTimeInterval(min(initial * pow(2, doublings), maximum))
        guard let serverTime = error.retryAfter else { return own }
        return max(own, serverTime)
    }
}
