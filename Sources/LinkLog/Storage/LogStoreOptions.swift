/// What the writer asks of the store it opens.
public struct LogStoreOptions: Sendable {
    /// How long to wait for another connection's lock before a batch counts as failed.
    public var busyTimeout: Duration
    /// Longest text stored in any column, in UTF-8 bytes (`LogRecord.capText`).
    public var maximumTextBytes: Int

    /// Options with the given limits.
    public init(busyTimeout: Duration, maximumTextBytes: Int) {
        self.busyTimeout = busyTimeout
        self.maximumTextBytes = maximumTextBytes
    }
}
