import Glibc
import LinkLog

/// A hit log in one SQLite file: the writer's store (WAL, one connection on the writer thread) and
/// reader connections that work while it writes.
public struct SQLiteLogDatabase: LogDatabase {
    /// The database file.
    public let path: String
    /// How long a reader waits for the writer's lock (only migrating an old file takes it).
    public let busyTimeout: Duration

    /// The log in the file at `path` (which need not exist yet for writing).
    public init(path: String, busyTimeout: Duration = .seconds(5)) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    public var displayName: String { path }

    /// `<database>.key`, beside the file.
    public var secretKeyFilePath: String { SecretHasher.keyFilePath(forDatabase: path) }
    /// Beside the file: `<file>.hits-journal` (never SQLite's own `-journal` name).
    public var defaultJournalPath: String { path + ".hits-journal" }

    public func openStore(_ options: LogStoreOptions) throws -> any LogStore {
        try SQLiteLogStore(path: path, options: options)
    }

    /// Opens the file, migrating it first; a read-only connection then refuses writes
    /// (`PRAGMA query_only`), so a query can never change the log.
    public func openConnection(readOnly: Bool) throws -> any LogSQLConnection {
        try openReader(readOnly: readOnly)
    }

    /// `openConnection`, as the SQLite connection it is.
    func openReader(readOnly: Bool) throws -> SQLiteConnection {
        guard access(path, F_OK) == 0 else { throw LogError.databaseMissing(path: path) }
        let connection = try SQLiteConnection(path: path, flags: [.readWrite])
        try connection.setBusyTimeout(busyTimeout)
        try SQLiteLogSchema.migrate(connection)
        if readOnly {
            try connection.execute("PRAGMA query_only = ON")
        } else {
            // As the writer's store: a rollup rebuild commits a transaction per chunk, and a full
            // sync after each would cost more than the chunk.
            try connection.execute("PRAGMA synchronous = NORMAL")
            // A rebuild pairs every open: views written by SQL alone are chained first.
            try connection.transaction(.immediate) { try connection.viewChains.extend() }
        }
        return connection
    }
}

extension LogWriter {
    /// A writer for the SQLite file at `databasePath` (see `LogWriterConfiguration(databasePath:)`).
    public convenience init(databasePath: String) throws {
        try self.init(configuration: LogWriterConfiguration(databasePath: databasePath))
    }
}

extension LogReader {
    /// Opens the SQLite log at `databasePath` for reading (`SQLiteLogDatabase.openConnection`);
    /// `usesRollups: false` counts the hits themselves (`LogReader.usesRollups`).
    public convenience init(databasePath: String, busyTimeout: Duration = .seconds(5), usesRollups: Bool = true) throws {
        try self.init(database: SQLiteLogDatabase(path: databasePath, busyTimeout: busyTimeout), usesRollups: usesRollups)
    }
}
