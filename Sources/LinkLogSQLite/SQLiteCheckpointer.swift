import BlockingThreads
internal import CSQLite
import Glibc
import LinkLog
import Synchronization

/// Copies the log writer's committed WAL frames into the database file on a thread of its own, so
/// the writer never waits for a checkpoint's page writes and `fdatasync`s.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses `wal_autocheckpoint` pages
/// (1,000 by default), on the writer's thread. A view of a new invitation dirties a random leaf of
/// the index of views by code, so under a launch of new links every commit wrote about one page
/// per row, and the default checkpoint copied each of those pages to the database file again and
/// synced both files a few times a second. Measured on this machine's ext4 disk (new invitation
/// links, `wrk -t2 -c64`, three 8-second runs on a fresh log): 4.1, 7.0 and 8.1 KB to disk a row,
/// the writer 17% of its time blocked in the block layer's write throttling and the server's
/// threads 28% waiting for room in the full queue. Checkpointing every 64,000 pages instead wrote
/// 3.1, 4.5 and 5.4 KB a row (a leaf changed by several commits is copied once) and served
/// 10–32% more requests, but on the writer's thread each of those checkpoints held up the queue:
/// the 99th percentile latency went from 44–80 ms to 141–192 ms. Here the writer does not wait
/// for them (`docs/performance.md`, "Checkpoints off the writer's thread").
///
/// The writer's connection reports each commit's WAL size through `sqlite3_wal_hook`, which also
/// turns off SQLite's own automatic checkpoint (https://sqlite.org/c3ref/wal_hook.html). At
/// `requestFrames` the thread is asked for a PASSIVE checkpoint, which copies what is committed
/// without blocking the writer or readers (https://sqlite.org/c3ref/wal_checkpoint_v2.html). SQLite
/// starts the WAL over only when a write transaction begins with every frame copied; a writer that
/// commits back to back may keep the thread one step behind, so at `writerFrames` the writer
/// checkpoints itself, as SQLite's automatic checkpoint would, and the file stays bounded.
///
/// `@unchecked Sendable`: the thread and the writer's thread share the atomics and the semaphore;
/// `lastRequest` is touched by the writer's hook alone, and `connection` by the thread until
/// `stop` has joined it.
package final class SQLiteCheckpointer: @unchecked Sendable {
    /// WAL pages (4 KiB each) at which the thread is asked to checkpoint.
    package let requestFrames: Int
    /// WAL pages at which the writer checkpoints in its own commit.
    package let writerFrames: Int

    /// 8,192 pages (32 MiB), and the writer's own checkpoint at four times that. Larger requests
    /// saved bytes (32,768 pages wrote 3.6 and 5.2 KB a new code against 4.8 and 7.0) but their
    /// bursts, competing for the two cores and the disk, raised the same link's 99th percentile
    /// from 6 to 10–24 ms; at 8,192 it stayed at 5.6–5.7 ms and a new code's requests a second
    /// gained as much (47,198 and 44,624 against 45,612 and 39,104 in the commit): what they gain
    /// is a writer that does not wait for the copy, more than fewer bytes.
    package static let standard = (requestFrames: 8_192, writerFrames: 32_768)

    /// The thread's own connection; closed by `stop`, so both connections are closed when the
    /// store is (the last to close removes the WAL, which must be gone before the file is opened
    /// again, `LogWriterEngine`).
    private var connection: SQLiteConnection?
    private let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private let pending = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let completed = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    /// WAL pages when the thread was last asked: it is asked again a quarter of `requestFrames`
    /// later, not after every commit while it works (each checkpoint syncs both files).
    private var lastRequest = 0
    /// WAL pages after the writer's latest commit, as its hook was told (the writer's thread only).
    package private(set) var walFrames = 0
    private var thread: pthread_t?

    /// Opens a connection of its own to the database at `path` (in WAL mode already) and starts
    /// the thread.
    package init(path: String, requestFrames: Int = standard.requestFrames, writerFrames: Int = standard.writerFrames) throws {
        self.requestFrames = requestFrames
        self.writerFrames = writerFrames
        let connection = try SQLiteConnection(path: path, flags: [.readWrite])
        // NORMAL: the WAL is synced before pages are copied out of it, the database file after.
        try connection.execute("PRAGMA synchronous = NORMAL")
        self.connection = connection
        sem_init(wake, 0, 0)
        switch BlockingThread.start(named: "linkhost-wal", { self.run() }) {
        case .success(let created):
            thread = created
        case .failure(let failure):
            // Every property is set, so `deinit` runs and frees the semaphore.
            throw SQLiteError(code: SQLITE_ERROR, message: failure.reason, context: "starting the checkpoint thread")
        }
    }

    deinit {
        sem_destroy(wake)
        wake.deallocate()
    }

    /// Checkpoints finished by the thread.
    package var checkpoints: Int { completed.load(ordering: .acquiring) }

    /// Checkpoints of the thread that failed (the next request tries again; the writer's own
    /// checkpoint at `writerFrames` still bounds the WAL).
    package var failedCheckpoints: Int { failures.load(ordering: .acquiring) }

    /// Reports `writer`'s commits to this checkpointer, in place of SQLite's automatic checkpoint.
    /// Undone by `detach` before either goes.
    package func attach(to writer: SQLiteConnection) {
        sqlite3_wal_hook(
            writer.handle,
            { context, database, name, frames in
                let checkpointer = Unmanaged<SQLiteCheckpointer>.fromOpaque(context!).takeUnretainedValue()
                checkpointer.committed(frames: Int(frames), database: database, name: name)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops reporting `writer`'s commits here.
    package func detach(from writer: SQLiteConnection) {
        sqlite3_wal_hook(writer.handle, nil, nil)
    }

    /// Finishes a checkpoint already asked for, ends the thread, waits for it and closes its
    /// connection. Called by the writer's thread, which owns this object, before its own
    /// connection closes.
    package func stop() {
        guard let thread else { return }
        stopping.store(true, ordering: .releasing)
        sem_post(wake)
        pthread_join(thread, nil)
        self.thread = nil
        connection = nil
    }

    /// On the writer's thread, inside its commit: the WAL now holds `frames` pages.
    private func committed(frames: Int, database: OpaquePointer?, name: UnsafePointer<CChar>?) {
        walFrames = frames
        if frames < lastRequest { lastRequest = 0 }  // the WAL started over
        if frames >= writerFrames {
            // Copies what the thread has not; SQLite's automatic checkpoint does the same here.
            sqlite3_wal_checkpoint_v2(database, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            lastRequest = 0
        } else if frames >= requestFrames, frames - lastRequest >= requestFrames / 4 {
            lastRequest = frames
            if !pending.exchange(true, ordering: .acquiringAndReleasing) { sem_post(wake) }
        }
    }

    /// The thread: a PASSIVE checkpoint per request, until stopped.
    private func run() {
        while true {
            while sem_wait(wake) != 0 {}  // EINTR
            if pending.exchange(false, ordering: .acquiringAndReleasing) {
                if let connection, sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_OK {
                    completed.add(1, ordering: .releasing)
                } else {
                    failures.add(1, ordering: .releasing)
                }
            }
            if stopping.load(ordering: .acquiring) { return }
        }
    }
}
