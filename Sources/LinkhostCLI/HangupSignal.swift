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
/// after it (the dispatch source coalesces them), which reads the file as it is by then.
final class HangupSignal: Sendable {
    // The dispatch source is not `Sendable`: it is made, used and cancelled under this lock only.
    private let source = Mutex<(any DispatchSourceSignal)?>(nil)
    private let action = Mutex<(@Sendable () -> Void)?>(nil)

    private init() {}

    /// Starts catching SIGHUP; actions run one at a time on a queue of their own.
    static func install() -> HangupSignal {
        signal(SIGHUP, SIG_IGN)
        let catcher = HangupSignal()
        catcher.source.withLock { slot in
            let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "linkhost.reload"))
            source.setEventHandler { [weak catcher] in
                guard let action = catcher?.action.withLock({ $0 }) else { return }
                action()
            }
            source.resume()
            slot = source
        }
        return catcher
    }

    /// What a SIGHUP does from now on.
    func onHangup(_ action: @escaping @Sendable () -> Void) {
        self.action.withLock { $0 = action }
    }

    /// Stops acting on SIGHUP (the server is stopping); a reload under way finishes. The signal
    /// stays ignored, so a late one cannot end the process mid-stop.
    func stop() {
        action.withLock { $0 = nil }
        source.withLock { source in
            source?.cancel()
            source = nil
        }
    }
}
