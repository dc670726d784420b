import Dispatch
import Foundation
import Synchronization

/// SIGTERM and SIGINT, caught instead of killing the process, so the server can stop gracefully.
///
/// `install()` must run before the server announces itself: a supervisor (or a test) may signal as
/// soon as it reads "listening", and a signal that arrived before the handler existed would end the
/// process on the spot. A signal that arrives before `wait()` is kept and returned at once.
final class TerminationSignal: @unchecked Sendable {
    // `@unchecked`: the dispatch sources are not `Sendable`; they are only touched under `lock`.
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []
    private var received: Int32?
    private var waiter: CheckedContinuation<Int32, Never>?

    private init() {}

    /// Starts catching SIGTERM and SIGINT.
    static func install() -> TerminationSignal {
        let catcher = TerminationSignal()
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak catcher] in catcher?.deliver(number) }
            source.resume()
            catcher.lock.withLock { catcher.sources.append(source) }
        }
        return catcher
    }

    /// Returns the first signal caught (at once if one already came).
    func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let early: Int32? = lock.withLock {
                if let received { return received }
                waiter = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    private func deliver(_ number: Int32) {
        let continuation: CheckedContinuation<Int32, Never>? = lock.withLock {
            guard received == nil else { return nil }
            received = number
            defer { waiter = nil }
            return waiter
        }
        continuation?.resume(returning: number)
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
