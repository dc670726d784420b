import BlockingThreads
import Glibc
import HitJournal

/// Syncs the hit journal to disk (`fdatasync`) every interval on a thread of its own, so what a
/// power loss or a kernel crash can cost is bounded by the interval and no request nor the writer
/// (which may be blocked in a database call) ever waits for a sync. A killed process loses nothing
/// either way: the journal's bytes are in the page cache.
///
/// `@unchecked Sendable`: the thread and `stop` share the atomic flag and the semaphore only.
final class JournalSyncer: @unchecked Sendable {
    private let journal: HitJournal
    private let interval: Duration
    /// Runs before each sync: writes what is kept in memory for now (completions) into the journal.
    private let beforeSync: @Sendable () -> Void
    private let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private var thread: pthread_t?
    private var stopping = false

    init(journal: HitJournal, interval: Duration, beforeSync: @escaping @Sendable () -> Void = {}) {
        self.journal = journal
        self.beforeSync = beforeSync
        self.interval = max(interval, .milliseconds(1))
        sem_init(wake, 0, 0)
    }

    deinit {
        sem_destroy(wake)
        wake.deallocate()
    }

    func start() throws {
        switch BlockingThread.start(named: "linkhost-jsync", { self.run() }) {
        case .success(let started): thread = started
        case .failure(let failure): throw LogError.writerThreadNotStarted(reason: failure.reason)
        }
    }

    /// Ends the thread after one last sync. Called once, by `LogWriterEngine.stop`.
    func stop() {
        guard let thread else { return }
        stopping = true
        sem_post(wake)
        pthread_join(thread, nil)
        self.thread = nil
    }

    private func run() {
        let (seconds, attoseconds) = interval.components
        while true {
            var until = timespec()
            clock_gettime(CLOCK_REALTIME, &until)
            let nanoseconds = until.tv_nsec + Int(attoseconds / 1_000_000_000)
            until.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
            until.tv_nsec = nanoseconds % 1_000_000_000
            let woken = sem_timedwait(wake, &until) == 0
            beforeSync()
            // A journal file deleted or truncated under the server is made anew here, off the
            // request path and off the writer (which may be blocked in a database call).
            journal.replaceIfLost()
            journal.sync()
            if woken, stopping { return }
        }
    }
}
