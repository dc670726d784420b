internal import CSQLite

/// One open SQLite database. Deliberately not `Sendable`: a connection belongs to the one thread that
/// uses it (the log writer's thread, or a command's reader), which keeps SQLite's locking simple.
public final class SQLiteConnection {
    /// How to open the file; `[.readWrite, .create]` makes it if missing.
    public struct OpenFlags: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
        public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
        public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
    }

    /// How a transaction takes its locks. `immediate` takes the write lock at `BEGIN`, so a busy
    /// database fails (after the busy timeout) before any work is done rather than at `COMMIT`.
    public enum TransactionKind: Sendable {
        case deferred
        case immediate
    }

    let handle: OpaquePointer
    /// The file this connection opened.
    public let path: String
    /// Statements of `withCachedStatement` by their SQL, reset between uses. The log writer asks the
    /// same few questions for every batch (the opens a batch's views pair with): compiling them
    /// each time cost it about 130,000 instructions a statement. Raw handles, not `SQLiteStatement`s,
    /// which would keep this connection alive from inside it.
    private var cachedStatements: [String: OpaquePointer] = [:]
    /// Past this many, the cache starts over (statements whose text varies, such as `IN` lists of
    /// one parameter per value, would otherwise pile up).
    public static let cachedStatementLimit = 32
    /// The log's views by code (`SQLiteViewChains`), which the SQL function `linkhost_view_of_code`
    /// walks; registered on every connection, loaded when first asked.
    package private(set) lazy var viewChains = SQLiteViewChains(connection: self)

    /// Done once, before the first connection initialises SQLite (see the shim).
    private static let libraryConfigured: Void = { _ = linkhost_sqlite_disable_memory_statistics() }()

    /// Opens (or with `.create`, creates) the database at `path`. Result codes are extended ones.
    public init(path: String, flags: OpenFlags = [.readWrite, .create]) throws {
        Self.libraryConfigured
        var opened: OpaquePointer?
        // NOMUTEX: a connection belongs to one thread at a time (see above), so SQLite's own lock
        // around every call on it buys nothing; it cost the log writer a lock and an unlock per bound
        // value, about a sixth of its time under load.
        let code = sqlite3_open_v2(path, &opened, flags.rawValue | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError(code: code, connection: opened, context: "opening \(path)")
            // SQLite hands back a handle even when opening fails; it must still be closed.
            if let opened { sqlite3_close_v2(opened) }
            throw error
        }
        sqlite3_extended_result_codes(opened, 1)
        handle = opened
        self.path = path
        viewChains.register()
    }

    deinit {
        for statement in cachedStatements.values { sqlite3_finalize(statement) }
        // close_v2 waits for any statement still alive; statements keep their connection alive anyway.
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that return no rows we need (DDL, pragmas, BEGIN/COMMIT).
    public func execute(_ sql: String) throws {
        var errorText: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorText)
        guard code == SQLITE_OK else {
            let message = errorText.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(errorText)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message)
        }
    }

    /// Compiles one SQL statement. `persistent` hints that it will be reused many times (the writer's
    /// insert), which lets SQLite keep it out of its short-lived lookaside memory.
    public func prepare(_ sql: String, persistent: Bool = false) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sqlite3_prepare_v3(handle, sql, -1, flags, &statement, nil)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement in \"\(sql)\"") }
        return SQLiteStatement(handle: statement, connection: self)
    }

    /// Runs `body` with the statement for `sql` from the cache (compiled on first use), then resets it,
    /// clears its parameters and keeps it. The statement must not outlive `body`. A statement in use
    /// is out of the cache, so `body` may run the same SQL again (on a statement of its own).
    func withCachedStatement<Result>(_ sql: String, _ body: (SQLiteStatement) throws -> Result) throws -> Result {
        var handle = cachedStatements.removeValue(forKey: sql)
        if handle == nil {
            let code = sqlite3_prepare_v3(self.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
            guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: self.handle) }
        }
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "no SQL statement in \"\(sql)\"") }
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            if cachedStatements.count >= Self.cachedStatementLimit {
                for statement in cachedStatements.values { sqlite3_finalize(statement) }
                cachedStatements.removeAll(keepingCapacity: true)
            }
            if let replaced = cachedStatements.updateValue(handle, forKey: sql) { sqlite3_finalize(replaced) }
        }
        return try body(SQLiteStatement(handle: handle, connection: self, owned: false))
    }

    /// How long a statement waits for another connection's lock before failing with `busy`.
    public func setBusyTimeout(_ timeout: Duration) throws {
        let milliseconds = max(0, min(Int64(Int32.max), timeout.wholeMilliseconds))
        let code = sqlite3_busy_timeout(handle, Int32(milliseconds))
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle) }
    }

    /// The first column of the first row of `sql` as an integer; `nil` when there is no row or it is NULL.
    public func queryInteger(_ sql: String) throws -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// The first column of the first row of `sql` as text; `nil` when there is no row or it is NULL.
    public func queryText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(at: 0)
    }

    /// `PRAGMA user_version`: the schema version this program's migrations keep.
    public func userVersion() throws -> Int {
        Int(try queryInteger("PRAGMA user_version") ?? 0)
    }

    /// Sets `PRAGMA user_version`.
    public func setUserVersion(_ version: Int) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last row this connection inserted.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` inside a transaction: commits if it returns, rolls back if it (or the commit) throws.
    public func transaction<Result>(_ kind: TransactionKind = .immediate, _ body: () throws -> Result) throws -> Result {
        try execute(kind == .immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT (busy, disk full) can leave the transaction open; SQLite may also
            // have rolled it back itself already, so only roll back what is still open.
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }
}

extension SQLiteConnection {
    /// Syncs the WAL and the database file through the files SQLite itself holds open (its VFS's
    /// `xSync`, https://sqlite.org/c3ref/io_methods.html), never a descriptor of our own: closing
    /// any other descriptor of the database would drop every POSIX lock this process holds on it,
    /// and another process's connection closing would then take the database for unused and delete
    /// the live WAL under the writer (https://sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_).
    func syncFiles() throws {
        for operation in [SQLITE_FCNTL_JOURNAL_POINTER, SQLITE_FCNTL_FILE_POINTER] {
            var file: UnsafeMutablePointer<sqlite3_file>?
            let found = withUnsafeMutablePointer(to: &file) { sqlite3_file_control(handle, "main", operation, $0) }
            // No WAL open (nothing committed since the connection opened): nothing to sync there.
            guard found == SQLITE_OK, let file, let sync = file.pointee.pMethods?.pointee.xSync else { continue }
            let synced = sync(file, SQLITE_SYNC_NORMAL)
            guard synced == SQLITE_OK else { throw SQLiteError(code: synced, connection: handle, context: "syncing \(path)") }
        }
    }
}
