import HitJournal

/// The hit log's writer: the server appends one `LogRecord` per answered request to a journal on
/// local disk (`HitJournal`), and a single background thread writes them from there into the log
/// database in batched transactions, each with the journal position it reached. Appending never
/// touches the database, so logging cannot slow a request, and a killed process loses no record it
/// appended: the next start writes what the database does not hold yet. While the database fails
/// the records wait in the journal (up to its size) while the writer retries.
public final class LogWriter: Sendable {
    private let engine: LogWriterEngine

    /// Opens the journal (refusing one that is not a journal, or that another process holds),
    /// starts the writer thread and waits for its first attempt to open (creating and migrating)
    /// the database, so `status` is meaningful at once. A database that cannot be opened does not
    /// throw: the writer reports it in `status` and keeps retrying.
    public init(configuration: LogWriterConfiguration) throws {
        engine = try LogWriterEngine(configuration: configuration)
        try engine.startThread()
        engine.waitForFirstOpenAttempt()
    }

    /// A writer for `database` with default settings.
    public convenience init(database: any LogDatabase) throws {
        try self.init(configuration: LogWriterConfiguration(database: database))
    }

    /// Stops the writer if `stop` was never called, writing what is in the journal.
    deinit {
        if !engine.status().isStopped { _ = engine.stop(timeout: .seconds(10)) }
    }

    /// Appends a record whose exchange has ended (sent in full, its `durationMicroseconds` as
    /// measured). Returns `false` — and counts the record — when the journal is full or its write
    /// failed, or after `stop`.
    @discardableResult
    public func enqueue(_ record: consuming LogRecord) -> Bool {
        let duration = UInt64(max(0, record.durationMicroseconds))
        return engine.append(record, completion: JournalCompletion(outcome: .sent, durationMicroseconds: duration)) != nil
    }

    /// Appends the record of an exchange whose response is about to be sent, before it is: a kill
    /// from here on leaves the record in the journal (written with its outcome unknown). `complete`
    /// it when the exchange ends. `nil` when the record was not taken (counted as in `enqueue`).
    public func begin(_ record: consuming LogRecord) -> JournalTicket? {
        engine.append(record, completion: nil)
    }

    /// The exchange of a record `begin` took ended: sent in full (its row is written with this
    /// duration) or not (it leaves no row).
    public func complete(_ ticket: JournalTicket, sent: Bool, durationMicroseconds: UInt64) {
        engine.complete(ticket, JournalCompletion(outcome: sent ? .sent : .cutShort, durationMicroseconds: durationMicroseconds))
    }

    /// The counters and health right now.
    public var status: LogWriterStatus {
        engine.status()
    }

    /// Waits until every record appended before this call is in the database; `false` if that did not
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

    /// Refuses new records, writes everything in the journal, closes the database and ends the
    /// thread. With a healthy database every appended record is written however long it takes; with
    /// a failing one the writer retries until `timeout` and then leaves the rest in the journal for
    /// the next start (`abandonedAtStop`). Safe to call more than once; returns the final status.
    @discardableResult
    public func stop(timeout: Duration = .seconds(10)) -> LogWriterStatus {
        engine.stop(timeout: timeout)
    }
}
