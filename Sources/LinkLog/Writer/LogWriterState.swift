/// What the request threads and the writer thread share, guarded by one `WriterStateLock`. The
/// records themselves are in the journal (and, until the writer takes them, in `handoff`); this
/// holds the writer's progress and counters.
struct LogWriterState {
    /// Bumped by every append and completion: the writer sleeps while it has not moved since its
    /// last read of the journal.
    var journalChanges = 0
    /// Whether the writer sleeps waiting for `journalChanges` (so appenders wake it only then).
    var writerWaiting = false
    /// The record the writer's last read stopped at because its exchange had not ended (its
    /// sequence), and whether its completion has come since.
    var awaitedSequence: UInt64?
    var awaitedCompleted = false
    /// The records appended and not yet taken by the writer, in memory beside the journal.
    var handoff = RecordHandoff(capacity: RecordHandoff.defaultCapacity)

    /// The sequence of the last record the database holds (written, or stepped over as one that
    /// leaves no row), and the last sequence any `append` before a `drain` took.
    var committedSequence: UInt64 = 0
    var written = 0
    /// Rows the database refused for a value (PostgreSQL: a NUL in a text), left out of their batch.
    var refused = 0
    /// Records that leave no row: their response was not sent in full.
    var cutShort = 0
    /// Rows written with their outcome unknown (the process ended before the exchange did).
    var outcomeUnknown = 0
    /// Records the journal could not take (full, or its write failed), not yet counted in the database.
    var droppedInDatabase = 0
    var rejectedAfterStop = 0
    /// Records of an earlier process written by this one.
    var recoveredWritten = 0
    /// Records whose bytes did not decode (a journal of another build), skipped.
    var undecodable = 0
    var batches = 0
    var retentionDeletedRows = 0
    /// Records still in the journal when `stop` gave up on a failing database (written at the next start).
    var leftInJournal = 0
    /// The oldest record not yet in the database (UTC milliseconds), while the writer holds one.
    var oldestPendingMilliseconds: Int64?

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

    /// Bumps the change count on an append; returns whether to wake the writer: only when it
    /// sleeps waiting for records. Called under the lock, so a writer that just found nothing new
    /// cannot miss the change before it sleeps. A writer held up by a record whose exchange has not
    /// ended waits for that completion alone (`LogWriterEngine.complete`): the records after it
    /// cannot be written before it, and waking for each of them made the writer look again for
    /// every request under load.
    mutating func noteChange() -> Bool {
        journalChanges &+= 1
        return writerWaiting && awaitedSequence == nil
    }
}
