/// Everything the request threads and the writer thread share, guarded by one `WriterStateLock`.
struct LogWriterState {
    /// Records waiting for the writer. The writer swaps this array out whole, so `enqueue` appends
    /// into storage that is reused from batch to batch.
    var queue: [LogRecord] = []
    /// Records the writer has taken but not committed yet (they still count against the capacity).
    var inFlight = 0

    var enqueued = 0
    var written = 0
    var dropped = 0
    var waitedForRoom = 0
    /// How much of `dropped` is already counted in the database's `meta` table.
    var droppedInDatabase = 0
    var rejectedAfterStop = 0
    var batches = 0
    var retentionDeletedRows = 0
    var abandonedAtStop = 0

    var health: LogWriterStatus.Health = .healthy
    var lastError: String?
    var failingSinceMilliseconds: Int64?
    var consecutiveFailures = 0

    /// Set once the writer has tried to open the database the first time (the initialiser waits for it).
    var firstOpenAttempted = false
    var stopRequested = false
    /// On the writer's clock, as a duration since the writer started (`WriterCycle`).
    var stopDeadline: Duration?
    var writerExited = false

    func snapshot(database: String, queueCapacity: Int) -> LogWriterStatus {
        LogWriterStatus(
            database: database,
            queueCapacity: queueCapacity,
            enqueued: enqueued,
            written: written,
            dropped: dropped,
            waitedForRoom: waitedForRoom,
            rejectedAfterStop: rejectedAfterStop,
            pending: queue.count + inFlight,
            batches: batches,
            health: health,
            lastError: lastError,
            failingSinceMilliseconds: failingSinceMilliseconds,
            consecutiveFailures: consecutiveFailures,
            retentionDeletedRows: retentionDeletedRows,
            abandonedAtStop: abandonedAtStop,
            isStopped: writerExited
        )
    }
}
