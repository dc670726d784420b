/// A snapshot of a `LogWriter`'s counters and health, for `/healthz` and the shutdown summary.
/// At any moment `enqueued == written + pending + abandonedAtStop`.
public struct LogWriterStatus: Sendable, Equatable, CustomStringConvertible {
    /// Whether the last attempt to reach the database worked.
    public enum Health: String, Sendable, CaseIterable {
        case healthy
        /// Rows are kept safe, but not where they belong yet (a local spool while the database is
        /// away); `lastError` says why.
        case degraded
        case failing
    }

    /// The database, as `LogDatabase.displayName` shows it (a path, or a URL without its password).
    public var database: String
    /// The in-memory limit the writer runs with.
    public var queueCapacity: Int
    /// Records accepted by `enqueue`.
    public var enqueued: Int
    /// Records committed to the database.
    public var written: Int
    /// Records refused because the queue was full (the goal is zero).
    public var dropped: Int
    /// Records that found the queue full and waited for the writer's next commit
    /// (`LogWriterConfiguration.fullQueueWait`): how often logging slowed the server to its pace.
    public var waitedForRoom: Int
    /// Records refused because the writer had been asked to stop.
    public var rejectedAfterStop: Int
    /// Records accepted but not yet committed (queued, or in a batch being written or retried).
    public var pending: Int
    /// Transactions committed.
    public var batches: Int
    /// Whether the database is being written.
    public var health: Health
    /// The latest database failure, kept after recovery for diagnosis.
    public var lastError: String?
    /// When the current failure began (UTC milliseconds); `nil` while healthy.
    public var failingSinceMilliseconds: Int64?
    /// Failed attempts in a row (0 while healthy).
    public var consecutiveFailures: Int
    /// Rows removed by retention since start.
    public var retentionDeletedRows: Int
    /// Records still unwritten when `stop` gave up on a failing database.
    public var abandonedAtStop: Int
    /// Whether the writer thread has finished.
    public var isStopped: Bool

    /// `health == .healthy`.
    public var isHealthy: Bool { health == .healthy }

    /// One line for a shutdown summary or a log message.
    public var description: String {
        var text = "hit log \(health.rawValue): \(written) written, \(pending) pending, \(dropped) dropped"
        if waitedForRoom > 0 { text += ", \(waitedForRoom) waited for room" }
        if rejectedAfterStop > 0 { text += ", \(rejectedAfterStop) refused after stop" }
        if abandonedAtStop > 0 { text += ", \(abandonedAtStop) lost at stop" }
        if health != .healthy, let lastError { text += " — \(lastError)" }
        return text
    }
}
