import LinkLog

extension LogReader {
    /// Opens the SQLite log at `databasePath` for reading (`SQLiteLogDatabase.openConnection`);
    /// `usesRollups: false` counts the hits themselves (`LogReader.usesRollups`).
    public convenience init(databasePath: String, busyTimeout: Duration = .seconds(5), usesRollups: Bool = true) throws {
        try self.init(database: SQLiteLogDatabase(path: databasePath, busyTimeout: busyTimeout), usesRollups: usesRollups)
    }
}
