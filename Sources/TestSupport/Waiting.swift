import Foundation

/// How tests wait: on a condition, polled, never for a fixed time. The deadline is only a safety
/// net so a broken condition fails the test instead of hanging it; it is generous because a loaded
/// 2-core machine can hold a thread back for seconds, and a passing run never gets near it.
///
/// Polling starts at a millisecond and backs off to 50 ms, so a condition that is already true
/// costs nothing and one that takes a while costs little processor time.
public enum Waiting {
    /// The safety net used when a test names none.
    public static let defaultTimeoutSeconds = 60.0

    static func pause(after attempt: Int) -> Double {
        min(0.001 * Double(1 << min(attempt, 6)), 0.05)
    }
}

/// Polls `condition` until it holds; false if it still did not when `timeoutSeconds` ran out.
/// Blocks its thread: an async test gets the overload below, which does not (hence disfavoured).
@_disfavoredOverload
@discardableResult
public func waitUntil(timeoutSeconds: Double = Waiting.defaultTimeoutSeconds, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    var attempt = 0
    while try !condition() {
        guard Date() < deadline else { return false }
        Thread.sleep(forTimeInterval: Waiting.pause(after: attempt))
        attempt += 1
    }
    return true
}

/// `waitUntil` for async tests: pauses without holding a thread of the cooperative pool.
@discardableResult
public func waitUntil(timeoutSeconds: Double = Waiting.defaultTimeoutSeconds, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    var attempt = 0
    while try await !condition() {
        guard Date() < deadline else { return false }
        try? await Task.sleep(for: .seconds(Waiting.pause(after: attempt)))
        attempt += 1
    }
    return true
}

/// The value `operation` returns, or `nil` when it has not returned after `timeoutSeconds` (it is
/// then cancelled): a safety net for an await that a bug could leave waiting for ever.
public func firstResult<T: Sendable>(
    withinSeconds timeoutSeconds: Double = Waiting.defaultTimeoutSeconds, _ operation: @escaping @Sendable () async -> T
) async -> T? {
    await withTaskGroup(of: T?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: .seconds(timeoutSeconds))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// Whether `condition` stayed false for all of `seconds`, watched the way `waitUntil` polls: for the
/// few checks that something does not happen (no retry after a cancellation), which have no event
/// to wait for, only a stated time to watch. A test that passes spends the whole window here.
public func neverHappens(withinSeconds seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    try await !waitUntil(timeoutSeconds: seconds, condition)
}
