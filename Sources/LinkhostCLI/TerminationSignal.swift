import Dispatch
import Foundation
import Synchronization

/// Waits for SIGTERM or SIGINT without killing the process, so the server can stop gracefully.
enum TerminationSignal {
    /// Returns the signal that arrived first.
    static func wait() async -> Int32 {
        let signals = [SIGTERM, SIGINT]
        for number in signals { signal(number, SIG_IGN) }
        let once = Mutex(false)
        let holder = SignalSourceHolder()
        let received = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            for number in signals {
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    let first = once.withLock { fired in
                        defer { fired = true }
                        return !fired
                    }
                    if first { continuation.resume(returning: number) }
                }
                source.resume()
                holder.keep(source)
            }
        }
        holder.cancelAll()
        return received
    }
}

/// Keeps the dispatch sources alive while waiting (a released source stops delivering).
/// `@unchecked` because dispatch sources are not `Sendable`; every access goes through the lock.
private final class SignalSourceHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [any DispatchSourceSignal] = []

    func keep(_ source: any DispatchSourceSignal) {
        lock.withLock { sources.append(source) }
    }

    func cancelAll() {
        lock.withLock {
            sources.forEach { $0.cancel() }
            sources.removeAll()
        }
    }
}
