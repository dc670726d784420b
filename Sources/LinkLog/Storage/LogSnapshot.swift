/// What a copy of a log database made as of one moment holds (`LogSnapshotSource.copySnapshot`),
/// and what making it cost the live database.
public struct LogSnapshot: Sendable, Equatable {
    /// Rows in `hits`.
    public var rows: Int64
    /// The largest row id in `hits`, `nil` when it is empty: rows past it were written after the copy.
    public var lastRowID: Int64?
    /// Per journal identity (`HitJournal.identifier`), the sequence of the last record the copy
    /// holds: where a writer with that journal goes on from when the copy is restored.
    public var journalPositions: [String: Int64]
    /// When the copy's moment was, UTC milliseconds.
    public var takenMilliseconds: Int64
    /// How long the live database's read transaction was held: meanwhile SQLite cannot start its
    /// WAL over, so the WAL grows by what the writer commits.
    public var heldFor: Duration
    /// The WAL's size when the copy began and when it ended (SQLite; `nil` without a WAL file).
    public var walBytesAtStart: Int64?
    public var walBytesAtEnd: Int64?
    /// The copy's size on disk.
    public var bytes: Int64

    public init(
        rows: Int64, lastRowID: Int64?, journalPositions: [String: Int64], takenMilliseconds: Int64, heldFor: Duration, walBytesAtStart: Int64?,
        walBytesAtEnd: Int64?, bytes: Int64
    ) {
        self.rows = rows
        self.lastRowID = lastRowID
        self.journalPositions = journalPositions
        self.takenMilliseconds = takenMilliseconds
        self.heldFor = heldFor
        self.walBytesAtStart = walBytesAtStart
        self.walBytesAtEnd = walBytesAtEnd
        self.bytes = bytes
    }
}

/// A log database that copies itself as of one moment into a file while its writer goes on writing:
/// what `LogBackup` is built on. SQLite's log does (`SQLiteLogDatabase`); a PostgreSQL log is
/// backed up with `pg_dump`, which takes one snapshot the same way.
public protocol LogSnapshotSource: LogDatabase {
    /// The name the copy takes in a backup folder: the database file's own, so restoring it is
    /// copying it back, and its key keeps the name beside it (`SecretHasher.keyFilePath`).
    var fileName: String { get }

    /// Copies the database as one read transaction sees it into a new file at `path`, synced to
    /// disk, and marks the copy as a backup (`HitTable.backupTakenKey`) so a writer that opens it
    /// later says it was restored. `whileHeld` runs on the connection that holds the transaction,
    /// before the copy: it sees exactly what the copy will hold. Never takes the write lock, so the
    /// writer goes on committing meanwhile.
    func copySnapshot(to path: String, whileHeld: (any LogSQLConnection) throws -> Void) throws -> LogSnapshot
}
