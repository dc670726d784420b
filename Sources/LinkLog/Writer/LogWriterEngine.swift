import Foundation
import Glibc
import Logging

/// The machinery behind `LogWriter`: the shared queue and counters, and the loop its writer thread
/// runs. Kept apart from `LogWriter` so the thread holds this object, not the public handle, and
/// releasing the handle can still stop the thread.
final class LogWriterEngine: Sendable {
    let configuration: LogWriterConfiguration
    let lock: WriterStateLock

    init(configuration: LogWriterConfiguration) {
        self.configuration = configuration
        var state = LogWriterState()
        state.queue.reserveCapacity(min(max(configuration.queueCapacity, 0), 1024))
        lock = WriterStateLock(state)
    }

    // MARK: - Called from any thread

    func enqueue(_ record: LogRecord) -> Bool {
        let capacity = configuration.queueCapacity
        let accepted = lock.withLock { state -> Bool in
            if state.stopRequested {
                state.rejectedAfterStop += 1
                return false
            }
            guard state.queue.count + state.inFlight < capacity else {
                state.dropped += 1
                return false
            }
            state.queue.append(record)
            state.enqueued += 1
            return true
        }
        // Outside the lock, so the woken writer does not immediately block on it.
        if accepted { lock.signal(.workArrived) }
        return accepted
    }

    func status() -> LogWriterStatus {
        lock.withLock { $0.snapshot(database: configuration.database.displayName, queueCapacity: configuration.queueCapacity) }
    }

    func waitForFirstOpenAttempt() {
        lock.withLock(waitingFor: .progressMade, until: nil, while: { !$0.firstOpenAttempted && !$0.writerExited }) { _ in }
    }

    func drain(timeout: Duration) -> Bool {
        let deadline = MonotonicInstant.now().advanced(by: timeout)
        let target = lock.withLock { $0.enqueued }
        lock.signal(.workArrived)
        // Records are written in the order they were queued, so `written` reaching the count at the
        // time of the call means every one of those records is in the database.
        return lock.withLock(waitingFor: .progressMade, until: deadline, while: { $0.written < target && !$0.writerExited }) {
            $0.written >= target
        }
    }

    func stop(timeout: Duration) -> LogWriterStatus {
        lock.withLock { state in
            guard !state.stopRequested else { return }
            state.stopRequested = true
            state.stopDeadline = MonotonicInstant.now().advanced(by: timeout)
        }
        lock.signal(.workArrived)
        lock.withLock(waitingFor: .progressMade, until: nil, while: { !$0.writerExited }) { _ in }
        return status()
    }

    /// Starts the writer thread: a plain detached pthread that holds a strong reference to the engine
    /// until its loop returns. A real thread, not a task, because it blocks in the database.
    func startThread() throws {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                let engine = Unmanaged<LogWriterEngine>.fromOpaque(context!).takeRetainedValue()
                // Named so the thread is recognisable in `top -H` and debuggers.
                Thread.current.name = "linkhost-log"
                engine.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<LogWriterEngine>.fromOpaque(context).release()
            throw LogError.writerThreadNotStarted(reason: String(cString: strerror(result)))
        }
        pthread_detach(thread)
    }

    // MARK: - The writer thread

    /// The writer loop: sleep until records arrive, take them all, insert them in one transaction;
    /// on failure keep them, back off and try again; on stop write what is left and return.
    private func run() {
        var cycle = WriterCycle(configuration: configuration)
        while true {
            cycle.takeWork(from: lock)
            cycle.writeIfDue(to: lock)
            if cycle.isFinished(updating: lock) { break }
            // A plain sleep, not a wait on the condition: every enqueue signals it, and waking the
            // writer for each request is the cost this pause exists to avoid. A stop is noticed after
            // the pause at the latest.
            if cycle.shouldCoalesce, !lock.withLock({ $0.stopRequested }) {
                usleep(WriterCycle.coalescingPauseMicroseconds)
            }
        }
        cycle.closeDatabase()
        lock.withLock { $0.writerExited = true }
        lock.broadcast(.progressMade)
    }
}
