import Glibc
import LinkLog
import LinkLogSQLite

/// The writer's store of a `SpooledLogDatabase`. Every batch gets a sequence number from the spool
/// and is written with it as a `LogBatchMarker`, in the database's transaction; when that fails the
/// batch goes to the spool under the same number. Before any new batch reaches the database the
/// spool is replayed oldest first, skipping batches the database already marked (a commit whose
/// answer was lost in a restart), so rows arrive in order and none twice. While the database is
/// away it is tried again after a pause that grows to 5 s, and batches go straight to the spool.
final class SpooledLogStore: LogStore {
    private let primaryDatabase: any LogDatabase
    private let spool: SQLiteSpool
    private let options: LogStoreOptions
    private var primary: (any LogStore)?
    private var lastFailure: String?
    /// Whether the spool holds batches (then new ones queue behind them), and how many rows, to say.
    private var isSpooling = false
    private var spooledRows = 0
    private var retryDelayMilliseconds: Int64 = 500
    private var nextAttemptMilliseconds: Int64 = 0

    private static let maximumRetryDelayMilliseconds: Int64 = 5000

    init(primary: any LogDatabase, spool: SQLiteSpool, options: LogStoreOptions) throws {
        self.primaryDatabase = primary
        self.spool = spool
        self.options = options
        isSpooling = try !spool.isEmpty()
        spooledRows = try spool.rowCount()
        if isSpooling { lastFailure = "batches of an earlier run wait to be replayed" }
    }

    private var markerKey: String { "spool:" + spool.identifier }

    /// The spool is a local file that stays put; the database's own connection is checked on use.
    var isStillCurrent: Bool { true }

    var degradation: String? {
        guard isSpooling || (primary == nil && lastFailure != nil) else { return nil }
        return
            "\(primaryDatabase.displayName) cannot be written (\(lastFailure ?? "not reached yet")); \(spooledRows) rows wait in the local spool \(spool.path)"
    }

    func insert(_ records: [LogRecord], droppedRecords: Int, marker: LogBatchMarker?) throws {
        let nothingNew = records.isEmpty && droppedRecords == 0
        let sequence = nothingNew ? nil : try spool.takeSequence()
        if let primary = connectedAndReplayed() {
            guard let sequence else { return }
            do {
                try primary.insert(records, droppedRecords: droppedRecords, marker: LogBatchMarker(key: markerKey, sequence: sequence))
                return
            } catch {
                failed(error)
            }
        }
        guard let sequence else { return }
        try spool.append(records, droppedRecords: droppedRecords, sequence: sequence)
        isSpooling = true
        spooledRows += records.count
    }

    func markedSequence(_ key: String) throws -> Int64? {
        try primary?.markedSequence(key)
    }

    /// Retention runs on the database when it is reachable; while it is not, it waits for the next run.
    func deleteRows(before cutoffMilliseconds: Int64) throws -> Int {
        guard let primary = connectedAndReplayed() else { return 0 }
        do {
            return try primary.deleteRows(before: cutoffMilliseconds)
        } catch {
            failed(error)
            return 0
        }
    }

    /// Rows replayed per turn of the writer at most, so a long outage's spool does not hold up new
    /// batches for long (they go to the spool behind it until it is empty, keeping the order).
    static let replayRowsPerTurn = 50_000

    /// The database's store once the spool is replayed into it; `nil` when it cannot be reached now
    /// (or its pause after a failure has not passed), or the spool is not empty yet.
    private func connectedAndReplayed() -> (any LogStore)? {
        if primary == nil {
            guard WallClock.nowMilliseconds() >= nextAttemptMilliseconds else { return nil }
        }
        do {
            if let current = primary, !current.isStillCurrent { primary = nil }
            let store = try primary ?? primaryDatabase.openStore(options)
            primary = store
            lastFailure = nil
            retryDelayMilliseconds = 500
            guard isSpooling else { return store }
            let done = try store.markedSequence(markerKey) ?? 0
            var replayed = 0
            while replayed < Self.replayRowsPerTurn, let batch = try spool.oldestBatch() {
                if batch.sequence > done {
                    try store.insert(batch.records, droppedRecords: batch.droppedRecords, marker: LogBatchMarker(key: markerKey, sequence: batch.sequence))
                }
                try spool.remove(batch.sequence)
                spooledRows = max(0, spooledRows - batch.records.count)
                replayed += max(1, batch.records.count)
            }
            isSpooling = try !spool.isEmpty()
            if !isSpooling { spooledRows = 0 }
            return isSpooling ? nil : store
        } catch {
            failed(error)
            return nil
        }
    }

    private func failed(_ error: any Error) {
        primary = nil
        lastFailure = "\(error)"
        nextAttemptMilliseconds = WallClock.nowMilliseconds() + retryDelayMilliseconds
        retryDelayMilliseconds = min(retryDelayMilliseconds * 2, Self.maximumRetryDelayMilliseconds)
    }
}
