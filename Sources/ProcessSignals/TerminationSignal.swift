import Foundation
import Synchronization

/// SIGTERM and SIGINT, caught instead of killing the process, so the server can stop gracefully.
///
/// `install()` must run before the server announces itself: a supervisor (or a test) may signal as
/// soon as it reads "listening", and a signal that arrived before the handler existed would end the
/// process on the spot. A signal that arrives before `wait()` is kept and returned at once.
public final class TerminationSignal: Sendable {
    private struct State {
        var received: Int32?
        var waiter: CheckedContinuation<Int32, Never>?
    }
    private let state = Mutex(State())

    private init() {}

    /// Starts catching `signals` (SIGTERM and SIGINT; tests pick others); the handler is in place
    /// when this returns.
    public static func install(_ signals: [Int32] = [SIGTERM, SIGINT]) throws -> TerminationSignal {
        let catcher = TerminationSignal()
        try SignalPipe.shared().handle(signals) { number in catcher.deliver(number) }
        return catcher
    }

    /// Returns the first signal caught (at once if one already came).
    public func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let early: Int32? = state.withLock { state in
                if let received = state.received { return received }
                state.waiter = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    private func deliver(_ number: Int32) {
        let continuation: CheckedContinuation<Int32, Never>? = state.withLock { state in
            guard state.received == nil else { return nil }
            state.received = number
            defer { state.waiter = nil }
            return state.waiter
        }
        continuation?.resume(returning: number)
    }
}
