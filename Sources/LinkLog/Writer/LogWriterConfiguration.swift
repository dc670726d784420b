import Logging

/// How a `LogWriter` runs: which database, where its journal is and how large, how long rows are
/// kept, and how it retries when the database fails.
public struct LogWriterConfiguration: Sendable {
    /// The database the rows go to (created when missing).
    public var database: any LogDatabase
    /// The journal every record goes into before the database (`HitJournal`); by default beside the
    /// database (`LogDatabase.defaultJournalPath`).
    public var journalPath: String
    /// The journal's size when it is made (an existing journal keeps its own): see
    /// `defaultJournalSizeBytes`.
    public var journalSizeBytes: UInt64
    /// How often the journal is synced to disk (`fdatasync`): what a power loss may cost at most.
    public var journalSyncInterval: Duration
    /// Rows written in one transaction at most: a backlog is written in batches this large, so a
    /// commit stays short (tens of milliseconds) and new rows are not held up behind it.
    public var maximumBatchRecords: Int
    /// How long the writer waits for an exchange to end before it writes the exchange's row with its
    /// outcome unknown (`duration_us` -1): far longer than any exchange lives, so only a fault
    /// (an exchange the server never reported ending) gets there.
    public var completionWait: Duration
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

    /// 1 GiB: at about 600 bytes a logged request (a page view with a browser's User-Agent), some
    /// 1.7 million records — an hour of an outage at 500 requests a second, ten at 50.
    public static let defaultJournalSizeBytes: UInt64 = 1 << 30

    /// A configuration with production defaults for everything but the database.
    public init(
        database: any LogDatabase,
        journalPath: String? = nil,
        journalSizeBytes: UInt64 = LogWriterConfiguration.defaultJournalSizeBytes,
        journalSyncInterval: Duration = .seconds(1),
        maximumBatchRecords: Int = 4096,
        completionWait: Duration = .seconds(600),
        retentionDays: Int = 0,
        retentionInterval: Duration = .seconds(3600),
        initialRetryDelay: Duration = .milliseconds(500),
        maximumRetryDelay: Duration = .seconds(5),
        busyTimeout: Duration = .seconds(5),
        maximumTextBytes: Int = 4096,
        logger: Logger = Logger(label: "linkhost.log")
    ) {
        self.database = database
        self.journalPath = journalPath ?? database.defaultJournalPath
        self.journalSizeBytes = journalSizeBytes
        self.journalSyncInterval = journalSyncInterval
        self.maximumBatchRecords = max(1, maximumBatchRecords)
        self.completionWait = completionWait
        self.retentionDays = retentionDays
        self.retentionInterval = retentionInterval
        self.initialRetryDelay = initialRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.busyTimeout = busyTimeout
        self.maximumTextBytes = maximumTextBytes
        self.logger = logger
    }
}
