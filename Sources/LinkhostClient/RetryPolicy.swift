import Foundation

/// When the client tries a report again: after a network failure, a 5xx answer or a 429 (rate
/// limited), with exponentially growing, jittered pauses, within a number of attempts and a total
/// time. Other answers (400, 401, 404, 422 ...) are final and never retried.
///
/// A report is worth a few retries because the app is usually opened right after the network came
/// back (a tapped link in a chat); jitter keeps many phones that lost the network together from
/// coming back in step, and the bounds keep a dead server from holding a report for long.
public struct RetryPolicy: Sendable, Hashable {
    /// How many times a report is sent at most, the first time included (1 means never retry).
    public var maximumAttempts: Int
    /// The pause before the first retry, in seconds, before jitter.
    public var initialDelay: TimeInterval
    /// How much each pause grows over the one before (2 doubles it).
    public var multiplier: Double
    /// The longest pause the backoff makes, in seconds (a longer `Retry-After` is still honoured
    /// when it fits in `maximumTotalTime`).
    public var maximumDelay: TimeInterval
    /// The share of each pause that is random, from 0 (none) to 1: a pause of `d` becomes a random
    /// value between `d × (1 − jitter)` and `d`.
    public var jitter: Double
    /// How long, in seconds, an attempt may go without hearing from the server before it fails
    /// and counts as a network failure (the request's `timeoutInterval`).
    public var attemptTimeout: TimeInterval
    /// The time, in seconds from the start of the first attempt, after which no retry starts: a
    /// pause that would end later is not begun, and the report fails with the last answer. A retry
    /// started in time still gets its whole `attemptTimeout` (an attempt cut short would only fail),
    /// so a report against an unreachable server ends after about `maximumTotalTime +
    /// attemptTimeout`.
    public var maximumTotalTime: TimeInterval

    /// A policy; every value is clamped to a sensible range (at least one attempt, no negative
    /// time, jitter within 0...1, a multiplier of at least 1).
    public init(
        maximumAttempts: Int = 5,
        initialDelay: TimeInterval = 0.5,
        multiplier: Double = 2,
        maximumDelay: TimeInterval = 8,
        jitter: Double = 0.5,
        attemptTimeout: TimeInterval = 10,
        maximumTotalTime: TimeInterval = 30
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = max(0, initialDelay)
        self.multiplier = max(1, multiplier)
        self.maximumDelay = max(0, maximumDelay)
        self.jitter = min(1, max(0, jitter))
        self.attemptTimeout = max(0.001, attemptTimeout)
        self.maximumTotalTime = max(0, maximumTotalTime)
    }

    /// Five attempts, the last starting within 30 seconds, pauses from about half a second doubling
    /// up to 8 seconds, 10 seconds for each attempt's answer.
    public static let standard = RetryPolicy()

    /// One attempt, no retries: for callers that do their own retrying.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The pause, in seconds, before retry number `retry` (1 for the pause after the first
    /// attempt), jitter included: the same policy gives a different value each time.
    public func delay(beforeRetry retry: Int) -> TimeInterval {
        var generator = SystemRandomNumberGenerator()
        return delay(beforeRetry: retry, using: &generator)
    }

    /// `delay(beforeRetry:)` with the random numbers drawn from `generator`.
    public func delay(beforeRetry retry: Int, using generator: inout some RandomNumberGenerator) -> TimeInterval {
        guard initialDelay > 0 else { return 0 }
        let exponent = Double(min(max(0, retry - 1), 64))
        let base = min(maximumDelay, initialDelay * pow(multiplier, exponent))
        guard jitter > 0, base > 0 else { return base }
        return base * (1 - jitter * Double.random(in: 0...1, using: &generator))
    }
}
