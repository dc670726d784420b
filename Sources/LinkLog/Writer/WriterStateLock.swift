import Glibc

/// The writer's shared state behind a pthread mutex, with two condition variables: one the writer
/// sleeps on until work arrives, one that callers of `drain`/`stop` sleep on until progress is made.
/// Two conditions, so a signal for the writer can never be swallowed by a waiting `drain`.
/// (`Synchronization.Mutex` has no condition variable, hence pthreads.)
///
/// `@unchecked Sendable`: `state` is only ever touched between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` (in `withLock`, including while a condition wait has re-taken the mutex),
/// and the pthread objects live at fixed heap addresses for the lifetime of the object.
final class WriterStateLock: @unchecked Sendable {
    enum Condition {
        /// Records were queued, or stop was requested: for the writer thread.
        case workArrived
        /// A batch was committed, a fault recorded, or the writer exited: for `drain`, `stop` and `init`.
        case progressMade
    }

    private var state: LogWriterState
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let workArrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let progressMade = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(_ state: LogWriterState) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines are MonotonicInstants: wall-clock jumps must not shorten or stretch a wait.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(workArrived, &attributes)
        pthread_cond_init(progressMade, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(workArrived)
        pthread_cond_destroy(progressMade)
        pthread_mutex_destroy(mutex)
        workArrived.deallocate()
        progressMade.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the state locked.
    func withLock<Result>(_ body: (inout LogWriterState) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Locks, sleeps on `condition` for as long as `shouldWait` says so (or until `deadline`), then
    /// runs `body` — all without letting go of the state in between.
    func withLock<Result>(
        waitingFor condition: Condition,
        until deadline: MonotonicInstant?,
        while shouldWait: (LogWriterState) -> Bool,
        _ body: (inout LogWriterState) throws -> Result
    ) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let variable = pointer(for: condition)
        while shouldWait(state) {
            if let deadline {
                guard MonotonicInstant.now() < deadline else { break }
                var wakeAt = deadline.timespecValue
                pthread_cond_timedwait(variable, mutex, &wakeAt)
            } else {
                pthread_cond_wait(variable, mutex)
            }
        }
        return try body(&state)
    }

    /// Wakes one thread waiting on `condition` (the writer is the only one on `workArrived`).
    func signal(_ condition: Condition) {
        pthread_cond_signal(pointer(for: condition))
    }

    /// Wakes every thread waiting on `condition`.
    func broadcast(_ condition: Condition) {
        pthread_cond_broadcast(pointer(for: condition))
    }

    private func pointer(for condition: Condition) -> UnsafeMutablePointer<pthread_cond_t> {
        switch condition {
        case .workArrived: workArrived
        case .progressMade: progressMade
        }
    }
}
