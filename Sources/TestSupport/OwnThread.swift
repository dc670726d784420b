import Foundation

/// Blocking work — waiting for a process, a socket, a pause — run on a thread of its own and
/// awaited without holding one of Swift's cooperative threads.
///
/// There are only as many of those as cores (two on CI), and Swift Testing runs the tests on them:
/// a test that blocks one for seconds leaves the run's async tests fewer or none, and tests that
/// time their own work (the client's retry budgets) then miss their budgets for no fault of theirs.
/// Tests record issues with `#expect` outside the closure, in their own task.
public enum OwnThread {
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}
