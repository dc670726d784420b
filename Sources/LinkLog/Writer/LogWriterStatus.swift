import HitJournal

/// A snapshot of a `LogWriter`'s counters and health, for the health report, the metrics and the stop line.
/// Every appended record is in the database (`written`, or `cutShort`, which leave no row), in the
/// journal waiting (`pending`), or was never taken (`dropped`).
public struct LogWriterStatus: Sendable, Equatable, CustomStringConvertible {
    /// Whether the last attempt to reach the database worked.
    public enum Health: String, Sendable, CaseIterable {
        case healthy
        /// Rows are kept safe, but not where they belong yet; `lastError` says why. (Not used by
        /// the journal's writer, which is healthy or failing; kept for the status's readers.)
        case degraded
        case failing
    }

    /// The database, as `LogDatabase.displayName` shows it (a path, or a URL without its password).
    public var database: String
    /// The journal: its file, size, fill and counters.
    public var journal: JournalStatus
    /// Records appended to the journal by this process.
    public var enqueued: Int
    /// Rows committed to the database by this process (an earlier process's records included).
    public var written: Int
    /// Of those, records an earlier process had appended (found in the journal at start).
    public var recoveredWritten: Int
    /// Records the journal did not take (full, or its disk write failed): the goal is zero.
    public var dropped: Int
    /// Records refused because the writer had been asked to stop.
    public var rejectedAfterStop: Int
    /// Records in the journal not yet in the database: the backlog a query does not see yet.
    public var pending: Int
    /// How old the oldest of them is, in seconds (0 when none is).
    public var backlogSeconds: Double
    /// Rows the database refused for a value (PostgreSQL refuses a NUL in a text), counted and left
    /// out of their batch, which went on.
    public var refused: Int
    /// Records whose response was not sent in full: they leave no row, as a request never answered.
    public var cutShort: Int
    /// Rows written with their outcome unknown (`duration_us` -1): the process ended before the
    /// exchange did, so whether the response went out is not known.
    public var outcomeUnknown: Int
    /// Stretches of the journal stepped over (holes a kill left, torn or corrupt records).
    public var skippedDamaged: Int
    /// Transactions committed.
    public var batches: Int
    /// Whether the database is being written.
    public var health: Health
    /// The latest database failure, kept after recovery for diagnosis (`health` says whether it is over).
    public var lastError: String?
    /// When the current failure began (UTC milliseconds); `nil` while healthy.
    public var failingSinceMilliseconds: Int64?
    /// Failed attempts in a row (0 while healthy).
    public var consecutiveFailures: Int
    /// Rows removed by retention since start.
    public var retentionDeletedRows: Int
    /// Records still in the journal when `stop` gave up on a failing database: written at the next start.
    public var abandonedAtStop: Int
    /// Whether the writer thread has finished.
    public var isStopped: Bool

    /// `health == .healthy`.
    public var isHealthy: Bool { health == .healthy }

    /// One line for a shutdown summary or a log message.
    public var description: String {
        var text = "hit log \(health.rawValue): \(written) written, \(pending) pending, \(dropped) dropped"
        if refused > 0 { text += ", \(refused) refused by the database" }
        if cutShort > 0 { text += ", \(cutShort) cut short (no row)" }
        if outcomeUnknown > 0 { text += ", \(outcomeUnknown) of unknown outcome" }
        if recoveredWritten > 0 { text += ", \(recoveredWritten) recovered from the journal" }
        if skippedDamaged > 0 { text += ", \(skippedDamaged) damaged journal stretches skipped" }
        if rejectedAfterStop > 0 { text += ", \(rejectedAfterStop) refused after stop" }
        if abandonedAtStop > 0 { text += ", \(abandonedAtStop) left in the journal for the next start" }
        if health != .healthy, let lastError { text += " — \(lastError)" }
        return text
    }
}
