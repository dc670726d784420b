import Glibc

/// The writer's shared state behind a pthread mutex, with the condition variables its threads sleep
/// on: the writer until records arrive or a stop is requested, callers of `drain`/`stop` until
/// progress is made. Separate conditions, so a signal meant for the writer can never be swallowed by
/// a waiting `drain`, and so records queued during a backoff or a pause wake nobody.
/// (`Synchronization.Mutex` has no condition variable, hence pthreads.)
///
/// `@unchecked Sendable`: `state` is only ever touched between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` (in `withLock`, including while a condition wait has re-taken the mutex),
/// and the pthread objects live at fixed heap addresses for the lifetime of the object.
final class WriterStateLock: @unchecked Sendable {
    enum Condition {
        /// Records were queued, or a stop was requested: for the writer waiting for records.
        case workArrived
        /// A stop was requested: for the writer sleeping out a backoff or a pause.
        case stopRequested
        /// A batch was committed, a fault recorded, retention run, or the writer exited: for
        /// `drain`, `stop`, `init` and status waits.
        case progressMade
    }

    private var state: LogWriterState
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let workArrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let stopRequested = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let progressMade = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(_ state: LogWriterState) {
        self.state = state
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Waits are measured on CLOCK_MONOTONIC, so wall-clock jumps neither shorten nor stretch them.
        // (glibc accepts only it and CLOCK_REALTIME here: not CLOCK_BOOTTIME, see `monotonicTime`.)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        for variable in [workArrived, stopRequested, progressMade] { pthread_cond_init(variable, &attributes) }
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        for variable in [workArrived, stopRequested, progressMade] {
            pthread_cond_destroy(variable)
            variable.deallocate()
        }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state locked.
    func withLock<Result>(_ body: (inout LogWriterState) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Locks, sleeps on `condition` for as long as `shouldWait` says so or until `timeout` has passed
    /// (none: no limit), then runs `body` — all without letting go of the state in between. The
    /// timeout is turned into one absolute time when the wait begins, so wake-ups that find
    /// `shouldWait` still true sleep on to the same end instead of reading the clock again.
    func withLock<Result>(
        waitingFor condition: Condition,
        timeout: Duration?,
        while shouldWait: (LogWriterState) -> Bool,
        _ body: (inout LogWriterState) throws -> Result
    ) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if shouldWait(state) {
            let variable = pointer(for: condition)
            if let timeout {
                if timeout > .zero {
                    var wakeAt = Self.monotonicTime(after: timeout)
                    while pthread_cond_timedwait(variable, mutex, &wakeAt) != ETIMEDOUT, shouldWait(state) {}
                }
            } else {
                repeat { pthread_cond_wait(variable, mutex) } while shouldWait(state)
            }
        }
        return try body(&state)
    }

    /// Wakes one thread waiting on `condition` (the writer is the only one on the writer's two).
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
        case .stopRequested: stopRequested
        case .progressMade: progressMade
        }
    }

    /// `remaining` from now on CLOCK_MONOTONIC, as the absolute time `pthread_cond_timedwait` takes.
    /// The writer's deadlines are on `ContinuousClock`, which on Linux also counts time spent
    /// suspended (CLOCK_BOOTTIME) where CLOCK_MONOTONIC does not, so after a resume a wait still
    /// sleeps what was left of it although its deadline has passed: a retry, a retention run or a
    /// timeout comes that much late, nothing worse.
    private static func monotonicTime(after remaining: Duration) -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let parts = remaining.components
        let nanoseconds = now.tv_nsec + Int(parts.attoseconds / 1_000_000_000)
        let (whole, overflow) = now.tv_sec.addingReportingOverflow(Int(parts.seconds))
        let (seconds, carryOverflow) = whole.addingReportingOverflow(nanoseconds / 1_000_000_000)
        guard !overflow, !carryOverflow else { return timespec(tv_sec: .max, tv_nsec: 0) }
        return timespec(tv_sec: seconds, tv_nsec: nanoseconds % 1_000_000_000)
    }
}
