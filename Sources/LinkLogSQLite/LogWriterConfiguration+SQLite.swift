import LinkLog

extension LogWriterConfiguration {
    /// A configuration for the SQLite file at `databasePath`, production defaults for the rest.
    public init(
        databasePath: String,
        queueCapacity: Int = 8_192,
        fullQueueWait: Duration = .seconds(1),
        retentionDays: Int = 0,
        retentionInterval: Duration = .seconds(3600),
        initialRetryDelay: Duration = .milliseconds(500),
        maximumRetryDelay: Duration = .seconds(5),
        busyTimeout: Duration = .seconds(5)
    ) {
        self.init(
            database: SQLiteLogDatabase(path: databasePath), queueCapacity: queueCapacity, fullQueueWait: fullQueueWait,
            retentionDays: retentionDays,
            retentionInterval: retentionInterval, initialRetryDelay: initialRetryDelay, maximumRetryDelay: maximumRetryDelay, busyTimeout: busyTimeout)
    }
}
