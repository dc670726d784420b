import LinkLog

extension LogWriterConfiguration {
    /// A configuration for the SQLite file at `databasePath`, its journal beside it unless
    /// `journalPath` says otherwise (a writer beside a running server needs its own), production
    /// defaults for the rest but the journal's size: 16 MiB, for the tools and tests that write a
    /// log of their own (the server's comes from `log.journal.sizeBytes`).
    public init(
        databasePath: String,
        journalPath: String? = nil,
        journalSizeBytes: UInt64 = 16 << 20,
        retentionDays: Int = 0,
        retentionInterval: Duration = .seconds(3600),
        initialRetryDelay: Duration = .milliseconds(500),
        maximumRetryDelay: Duration = .seconds(5),
        busyTimeout: Duration = .seconds(5)
    ) {
        self.init(
            database: SQLiteLogDatabase(path: databasePath), journalPath: journalPath, journalSizeBytes: journalSizeBytes, retentionDays: retentionDays,
            retentionInterval: retentionInterval, initialRetryDelay: initialRetryDelay, maximumRetryDelay: maximumRetryDelay, busyTimeout: busyTimeout)
    }
}
