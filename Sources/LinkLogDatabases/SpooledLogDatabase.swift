import LinkLog
import LinkLogSQLite

/// A log database that is reached over the network (PostgreSQL), with a local SQLite spool for the
/// times it cannot be: the writer's batches go to the spool while the database is away and are
/// replayed, oldest first and each exactly once, when it is back. Readers read the database itself.
public struct SpooledLogDatabase: LogDatabase {
    /// Where the rows belong.
    public let primary: any LogDatabase
    /// The local spool file.
    public let spoolPath: String

    /// `primary`, spooling to the SQLite file at `spoolPath` when it cannot be written.
    public init(primary: any LogDatabase, spoolPath: String) {
        self.primary = primary
        self.spoolPath = spoolPath
    }

    public var displayName: String { primary.displayName }
    public var secretKeyFilePath: String { primary.secretKeyFilePath }

    /// Opens the spool; the database itself is connected to on first use, so a server starts (and
    /// keeps its rows) while the database is down.
    public func openStore(_ options: LogStoreOptions) throws -> any LogStore {
        try SpooledLogStore(primary: primary, spool: SQLiteSpool(path: spoolPath), options: options)
    }

    public func openConnection(readOnly: Bool) throws -> any LogSQLConnection {
        try primary.openConnection(readOnly: readOnly)
    }
}
