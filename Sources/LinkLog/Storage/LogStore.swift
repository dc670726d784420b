/// The writer's side of a log database: used on the writer thread only, dropped and opened again
/// (through `LogDatabase.openStore`) after any failure, which is how a restarted server or a
/// re-created file is picked up.
public protocol LogStore: AnyObject {
    /// Whether this store still writes where readers will look. SQLite keeps writing into a file that
    /// was deleted or replaced, so its store compares the file it opened with the one at its path;
    /// a store whose connection notices such things itself just says `true`.
    var isStillCurrent: Bool { get }

    /// Inserts `records` (already capped, `LogRecord.capText`), adds their counts to the rollup
    /// tables (`RollupTable.counts`) and `droppedRecords` to the dropped counter, all in one
    /// transaction: either everything is in the database or nothing is, so the rollups are never out
    /// of step with the hits.
    /// With a `marker`, its mark is recorded in the same transaction (`markedSequence`).
    func insert(_ records: [LogRecord], droppedRecords: Int, marker: LogBatchMarker?) throws

    /// Rows the database refused for a value since the store opened, counted and left out of their
    /// batch (`PostgreSQLLogStore.insert`); SQLite refuses none.
    var refusedRows: Int { get }

    /// The highest sequence marked for `key`, `nil` when none was.
    func markedSequence(_ key: String) throws -> Int64?

    /// When the backup this database was restored from was taken (UTC milliseconds), the first
    /// time a writer opens it (`HitTable.backupTakenKey`, which this deletes); `nil` otherwise.
    func takeBackupMark() throws -> Int64?

    /// Makes every commit so far survive a power loss, before the writer hands the journal's space
    /// for them back. SQLite at `synchronous = NORMAL` syncs its WAL only at checkpoints, so it syncs
    /// it here; a database whose commits are durable when they return (PostgreSQL) does nothing.
    func makeDurable() throws

    /// Deletes hits before `cutoffMilliseconds` and the rollup rows of the buckets before it, in one
    /// transaction; returns how many hits went. The cutoff is the start of a bucket of
    /// `RollupGrain.coarsest`, so no rollup row is cut in two.
    func deleteRows(before cutoffMilliseconds: Int64) throws -> Int
}

extension LogStore {
    /// Inserts without a batch mark.
    public func insert(_ records: [LogRecord], droppedRecords: Int) throws {
        try insert(records, droppedRecords: droppedRecords, marker: nil)
    }

    public var refusedRows: Int { 0 }

    /// None: only SQLite's backups are marked (a `pg_dump` is restored as it was dumped).
    public func takeBackupMark() throws -> Int64? { nil }

    public func makeDurable() throws {}
}

/// What the writer asks of the store it opens.
public struct LogStoreOptions: Sendable {
    /// How long to wait for another connection's lock before a batch counts as failed.
    public var busyTimeout: Duration
    /// Longest text stored in any column, in UTF-8 bytes (`LogRecord.capText`).
    public var maximumTextBytes: Int

    /// Options with the given limits.
    public init(busyTimeout: Duration, maximumTextBytes: Int) {
        self.busyTimeout = busyTimeout
        self.maximumTextBytes = maximumTextBytes
    }
}
