import LinkLog

extension LogWriter {
    /// A writer for the SQLite file at `databasePath` with default settings.
    public convenience init(databasePath: String) throws {
        try self.init(database: SQLiteLogDatabase(path: databasePath))
    }
}
