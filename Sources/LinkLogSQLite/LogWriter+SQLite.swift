import LinkLog

extension LogWriter {
    /// A writer for the SQLite file at `databasePath` (see `LogWriterConfiguration(databasePath:)`).
    public convenience init(databasePath: String) throws {
        try self.init(configuration: LogWriterConfiguration(databasePath: databasePath))
    }
}
