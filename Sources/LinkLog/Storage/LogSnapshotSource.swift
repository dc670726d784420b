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
