import Logging

/// How a `LogWriter` runs: which database, how much it may hold in memory, how long rows are kept,
/// and how it retries when the database fails.
public struct LogWriterConfiguration: Sendable {
    /// The database the rows go to (created when missing).
    public var database: any LogDatabase
    /// Records held in memory (queued plus being written) before new ones wait (`fullQueueWait`) or
    /// are dropped. With waiting, a larger queue buys no throughput: under a load the writer cannot
    /// keep up with it only holds more memory (a few kilobytes a record) and makes each batch, and
    /// so each wait for room, longer. 8,192 kept a saturated server within 64 MB; a failing
    /// database (nothing drains the queue) fills it in a minute and a half at 100 requests a second.
    public var queueCapacity: Int
    /// How long a record waits for room in a full queue while the writer is making progress
    /// (committing batches, not failing), before it is dropped and counted; zero drops at once.
    /// Under a load the writer cannot keep up with, this slows the requests that log (the
    /// server's threads wait here after answering) rather than losing rows; when the database
    /// fails the queue is not drained, and records are dropped without waiting.
    public var fullQueueWait: Duration
    /// Delete rows older than this many days (from the start of that UTC day, so whole days go), at
    /// open and every `retentionInterval`; 0 keeps everything.
    public var retentionDays: Int
    /// How often retention runs while the writer is up.
    public var retentionInterval: Duration
    /// The first wait before retrying a failed database; doubled after each failure ...
    public var initialRetryDelay: Duration
    /// ... up to this.
    public var maximumRetryDelay: Duration
    /// How long the database waits for another connection's lock before a batch counts as failed.
    public var busyTimeout: Duration
    /// Longest text stored in any column, in UTF-8 bytes; longer client-sent values are cut.
    public var maximumTextBytes: Int
    /// Where fault and recovery messages go (once per change, not once per retry).
    public var logger: Logger

    /// A configuration with production defaults for everything but the database.
    public init(
        database: any LogDatabase,
        queueCapacity: Int = 8_192,
        fullQueueWait: Duration = .seconds(1),
        retentionDays: Int = 0,
        retentionInterval: Duration = .seconds(3600),
        initialRetryDelay: Duration = .milliseconds(500),
        maximumRetryDelay: Duration = .seconds(5),
        busyTimeout: Duration = .seconds(5),
        maximumTextBytes: Int = 4096,
        logger: Logger = Logger(label: "linkhost.log")
    ) {
        self.database = database
        self.queueCapacity = queueCapacity
        self.fullQueueWait = fullQueueWait
        self.retentionDays = retentionDays
        self.retentionInterval = retentionInterval
        self.initialRetryDelay = initialRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.busyTimeout = busyTimeout
        self.maximumTextBytes = maximumTextBytes
        self.logger = logger
    }
}
