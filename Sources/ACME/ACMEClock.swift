import Foundation

/// The time as the client sees it: when `Retry-After` dates fall and how long polls wait. Injected
/// so tests run an order's waits in no time.
public protocol ACMEClock: Sendable {
    func now() -> Date
    /// Returns at `deadline` (at once when it has passed); throws when the task is cancelled.
    func sleep(until deadline: Date) async throws
}

/// The real clock.
public struct ACMESystemClock: ACMEClock {
    public init() {}

    public func now() -> Date { Date() }

    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        if seconds > 0 { try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) }
    }
}
