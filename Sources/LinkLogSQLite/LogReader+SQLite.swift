import LinkLog

extension LogReader {
    /// Opens the SQLite log at `databasePath` for reading (`SQLiteLogDatabase.openConnection`).
    public convenience init(databasePath: String, busyTimeout: Duration = .seconds(5)) throws {
        try self.init(database: SQLiteLogDatabase(path: databasePath, busyTimeout: busyTimeout))
    }
}
