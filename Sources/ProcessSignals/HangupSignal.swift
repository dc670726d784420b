import Dispatch
import Foundation
import Synchronization

/// SIGHUP, caught to reload the configuration (as nginx and most daemons do) instead of ending the
/// process, which is what SIGHUP does by default.
///
/// `install()` must run before the pid file exists and before the server announces itself, for
/// the same reason as `TerminationSignal`: `linkhost reload` may signal as soon as it can read the
/// pid. A SIGHUP that comes before `onHangup` is given an action is dropped: the config is being
/// read right then anyway. Signals that arrive while a reload runs are merged into one more reload
/// after it, which reads the file as it is by then.
public final class HangupSignal: Sendable {
    private struct State {
        var action: (@Sendable () -> Void)?
        var running = false
        var again = false
    }
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "linkhost.reload")

    private init() {}

    /// Starts catching `signal` (SIGHUP; tests pick another), in force when this returns; reloads run one at a time on a queue of
    /// their own, so a long one never holds up SIGTERM.
    public static func install(_ signal: Int32 = SIGHUP) throws -> HangupSignal {
        let catcher = HangupSignal()
        try SignalPipe.shared().handle([signal]) { _ in catcher.hangup() }
        return catcher
    }

    /// What a SIGHUP does from now on.
    public func onHangup(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.action = action }
    }

    /// Stops acting on SIGHUP (the server is stopping); a reload under way finishes. The signal
    /// stays caught, so a late one cannot end the process mid-stop.
    public func stop() {
        state.withLock { $0.action = nil }
    }

    private func hangup() {
        let start: Bool = state.withLock { state in
            guard state.action != nil else { return false }
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        guard start else { return }
        queue.async { [self] in
            while let action = state.withLock({ $0.action }) {
                action()
                let more: Bool = state.withLock { state in
                    if state.again {
                        state.again = false
                        return true
                    }
                    state.running = false
                    return false
                }
                if !more { return }
            }
            state.withLock { $0.running = false }
        }
    }
}
