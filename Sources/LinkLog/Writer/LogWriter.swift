/// The hit log's writer: the server hands it one `LogRecord` per answered request, and a single
/// background thread inserts them into the log database in batched transactions. `enqueue` never
/// touches the database, so logging cannot slow a request; when the database fails the records wait in memory
/// (up to the queue capacity) while the writer retries, and `stop` writes everything still queued.
public final class LogWriter: Sendable {
    private let engine: LogWriterEngine

    /// Starts the writer thread and waits for its first attempt to open (creating and migrating) the
    /// database, so `status` is meaningful at once. A database that cannot be opened does not throw:
    /// the writer reports it in `status` and keeps retrying. Throws only if the thread cannot start.
    public init(configuration: LogWriterConfiguration) throws {
        engine = LogWriterEngine(configuration: configuration)
        try engine.startThread()
        engine.waitForFirstOpenAttempt()
    }

    /// A writer for `database` with default settings.
    public convenience init(database: any LogDatabase) throws {
        try self.init(configuration: LogWriterConfiguration(database: database))
    }

    /// Stops the writer if `stop` was never called, writing what is queued.
    deinit {
        if !engine.status().isStopped { _ = engine.stop(timeout: .seconds(10)) }
    }

    /// Queues a record for writing. Takes a lock for an array append only. Returns `false` — and
    /// counts the record as dropped — when the queue is full, or after `stop`.
    @discardableResult
    public func enqueue(_ record: consuming LogRecord) -> Bool {
        engine.enqueue(record)
    }

    /// The counters and health right now.
    public var status: LogWriterStatus {
        engine.status()
    }

    /// Waits until every record enqueued before this call is in the database; `false` if that did not
    /// happen within `timeout` (the database is failing) or the writer stopped first.
    @discardableResult
    public func drain(timeout: Duration = .seconds(10)) -> Bool {
        engine.drain(timeout: timeout)
    }

    /// Waits until `condition` holds for the status, checking it each time the writer makes progress
    /// (a batch committed, a failure, rows deleted by retention, the end); `false` if `timeout` passed
    /// or the writer stopped first. For tests, which wait on what they assert rather than for a time.
    package func waitForStatus(timeout: Duration, until condition: (LogWriterStatus) -> Bool) -> Bool {
        engine.waitForStatus(timeout: timeout, until: condition)
    }

    /// Refuses new records, writes everything queued, closes the database and ends the thread.
    /// With a healthy database every accepted record is written however long it takes; with a failing
    /// one the writer keeps retrying until `timeout` and then counts what is left as
    /// `abandonedAtStop`. Safe to call more than once; returns the final status.
    @discardableResult
    public func stop(timeout: Duration = .seconds(10)) -> LogWriterStatus {
        engine.stop(timeout: timeout)
    }
}
