import Logging

/// What the writer thread carries from one turn of its loop to the next: the open database (if any),
/// the batch it is trying to write, and its retry and retention clocks. Lives on the writer thread's
/// stack only, which is why it may hold the non-`Sendable` connection.
struct WriterCycle {
    private let configuration: LogWriterConfiguration
    private var logger: Logger { configuration.logger }

    private var store: (any LogStore)?
    /// Records taken from the queue and not yet committed; kept across failed attempts.
    private var batch: [LogRecord] = []
    /// Refused records not yet added to the database's `meta` count.
    private var droppedToRecord = 0
    private var isFailing = false
    private var retryDelay: Duration
    private var nextAttempt = MonotonicInstant.now()
    private var nextRetention: MonotonicInstant?
    /// While the store is degraded (rows in a local spool), when to give it a turn without new rows,
    /// so it can catch up even when no requests come.
    private var nextCatchUp: MonotonicInstant?
    private static let catchUpInterval: Duration = .seconds(1)
    private var isDegraded = false
    /// Set once the writer has seen the stop request.
    private var stopDeadline: MonotonicInstant?

    /// Above this many slots the batch array is not kept for reuse after a burst, so memory goes back.
    private static let reusableBatchCapacity = 8192
    private static let millisecondsPerDay: Int64 = 86_400_000

    init(configuration: LogWriterConfiguration) {
        self.configuration = configuration
        self.retryDelay = min(configuration.initialRetryDelay, configuration.maximumRetryDelay)
    }

    /// Sleeps until there is something to do — records, a retry or retention falling due, a stop —
    /// then takes everything queued into the batch.
    mutating func takeWork(from lock: WriterStateLock) {
        let mustOpenFirst = store == nil && !isFailing
        let failing = isFailing
        let stopNoticed = stopDeadline != nil
        var batch = self.batch
        self.batch = []
        var drops = 0
        var noticedStopDeadline: MonotonicInstant?
        lock.withLock(
            waitingFor: .workArrived, until: nextWakeUp(),
            while: { state in
                if mustOpenFirst { return false }
                if state.stopRequested, !stopNoticed { return false }
                // While failing, sleep out the backoff even if records arrive.
                if failing { return true }
                return state.queue.isEmpty
            }
        ) { state in
            if batch.isEmpty {
                // O(1): the queue continues in the batch's old (empty, already sized) storage.
                swap(&batch, &state.queue)
            } else {
                batch.append(contentsOf: state.queue)
                state.queue.removeAll(keepingCapacity: true)
            }
            state.inFlight = batch.count
            drops = state.dropped - state.droppedInDatabase
            if state.stopRequested, !stopNoticed { noticedStopDeadline = state.stopDeadline ?? MonotonicInstant.now() }
        }
        self.batch = batch
        droppedToRecord = drops
        if let noticedStopDeadline { stopDeadline = noticedStopDeadline }
    }

    /// After writing a small batch, the writer waits this long before taking the next one, so that
    /// under steady load rows are committed a few hundred at a time instead of one transaction per
    /// request (a commit costs far more than a row). Rows become visible at most this much later.
    static let coalescingPauseMicroseconds: UInt32 = 10_000
    /// Batches at least this large are followed by no pause: the writer is busy anyway.
    static let coalescingBatchSize = 512

    /// Rows in the last batch written, for the coalescing pause.
    private(set) var lastWrittenCount = 0

    /// Whether the writer should pause before its next turn (a small batch, and no stop pending).
    var shouldCoalesce: Bool {
        stopDeadline == nil && !isFailing && lastWrittenCount > 0 && lastWrittenCount < Self.coalescingBatchSize
    }

    /// Writes the batch (opening the database first if needed) unless a failure's backoff is still
    /// running, then runs retention when it is due.
    mutating func writeIfDue(to lock: WriterStateLock) {
        lastWrittenCount = 0
        guard !isFailing || MonotonicInstant.now() >= nextAttempt else { return }
        let store: any LogStore
        do {
            store = try openIfNeeded(lock)
            let catchUpDue = nextCatchUp.map { MonotonicInstant.now() >= $0 } ?? false
            if !batch.isEmpty || droppedToRecord > 0 || catchUpDue {
                capTexts()
                try store.insert(batch, droppedRecords: droppedToRecord)
            }
        } catch {
            recordFault(error, lock)
            return
        }
        recordSuccess(lock, degradation: store.degradation)
        applyRetentionIfDue(store, lock)
    }

    /// Caps every text of the batch's records in place (`LogRecord.capText(to:)`); a batch kept
    /// after a failed attempt may be capped again.
    private mutating func capTexts() {
        let maximum = configuration.maximumTextBytes
        for index in batch.indices { batch[index].capText(to: maximum) }
    }

    /// Whether the loop should end: after a stop, once everything is written, or once the stop's
    /// deadline has passed with the database still failing (what is left is counted as abandoned).
    mutating func isFinished(updating lock: WriterStateLock) -> Bool {
        guard let stopDeadline else { return false }
        if !isFailing, batch.isEmpty { return true }
        guard MonotonicInstant.now() >= stopDeadline else { return false }
        let lost = lock.withLock { state -> Int in
            let lost = batch.count + state.queue.count
            state.abandonedAtStop += lost
            state.queue.removeAll()
            state.inFlight = 0
            return lost
        }
        batch.removeAll()
        logger.error(
            "stopping while the hit log database fails: \(lost) records could not be written", metadata: ["database": "\(configuration.database.displayName)"])
        return true
    }

    /// Closes the database (checkpointing its WAL).
    mutating func closeDatabase() {
        store = nil
    }

    // MARK: - Steps

    private mutating func openIfNeeded(_ lock: WriterStateLock) throws -> any LogStore {
        if let current = store {
            if current.isStillCurrent { return current }
            // Close first: the old connection removes its WAL by name when it closes, which must
            // happen before a new database gets a WAL under that name.
            logger.warning("the hit log database was deleted or replaced; starting it again", metadata: ["database": "\(configuration.database.displayName)"])
            store = nil
        }
        let opened = try configuration.database.openStore(
            LogStoreOptions(busyTimeout: configuration.busyTimeout, maximumTextBytes: configuration.maximumTextBytes))
        if configuration.retentionDays > 0 {
            let deleted = try opened.deleteRows(before: retentionCutoff())
            if deleted > 0 { lock.withLock { $0.retentionDeletedRows += deleted } }
            nextRetention = MonotonicInstant.now().advanced(by: configuration.retentionInterval)
        }
        // A store that opens with rows kept aside (a spool from an earlier run) gets its first turn at once.
        if opened.degradation != nil { nextCatchUp = MonotonicInstant.now() }
        store = opened
        return opened
    }

    private mutating func recordSuccess(_ lock: WriterStateLock, degradation: String?) {
        nextCatchUp = degradation == nil ? nil : MonotonicInstant.now().advanced(by: Self.catchUpInterval)
        if (degradation != nil) != isDegraded {
            if let degradation {
                logger.error("the hit log keeps rows aside: \(degradation)", metadata: ["database": "\(configuration.database.displayName)"])
            } else {
                logger.notice("the hit log rows kept aside are all written", metadata: ["database": "\(configuration.database.displayName)"])
            }
            isDegraded = degradation != nil
        }
        let count = batch.count
        lastWrittenCount = count
        let drops = droppedToRecord
        lock.withLock { state in
            state.written += count
            if count > 0 { state.batches += 1 }
            state.droppedInDatabase += drops
            state.inFlight = 0
            state.firstOpenAttempted = true
            state.health = degradation == nil ? .healthy : .degraded
            if let degradation { state.lastError = degradation }
            state.failingSinceMilliseconds = nil
            state.consecutiveFailures = 0
        }
        lock.broadcast(.progressMade)
        batch.removeAll(keepingCapacity: batch.capacity <= Self.reusableBatchCapacity)
        droppedToRecord = 0
        if isFailing {
            logger.notice(
                "the hit log database is being written again", metadata: ["database": "\(configuration.database.displayName)", "caughtUp": "\(count)"])
        }
        isFailing = false
        retryDelay = min(configuration.initialRetryDelay, configuration.maximumRetryDelay)
    }

    private mutating func recordFault(_ error: any Error, _ lock: WriterStateLock) {
        // Drop the connection: the next attempt opens afresh, which is what recovers from a deleted
        // folder, a replaced file or a stale lock.
        store = nil
        isFailing = true
        nextAttempt = MonotonicInstant.now().advanced(by: retryDelay)
        retryDelay = min(retryDelay * 2, configuration.maximumRetryDelay)
        let message = "\(error)"
        let (began, pending) = lock.withLock { state -> (Bool, Int) in
            let began = state.health == .healthy
            state.health = .failing
            state.lastError = message
            state.failingSinceMilliseconds = state.failingSinceMilliseconds ?? WallClock.nowMilliseconds()
            state.consecutiveFailures += 1
            state.firstOpenAttempted = true
            return (began, state.queue.count + state.inFlight)
        }
        lock.broadcast(.progressMade)
        if began {
            logger.error(
                "cannot write the hit log database; keeping records in memory and retrying",
                metadata: [
                    "database": "\(configuration.database.displayName)", "error": "\(message)", "pending": "\(pending)",
                ])
        }
    }

    private mutating func applyRetentionIfDue(_ store: any LogStore, _ lock: WriterStateLock) {
        guard let due = nextRetention, MonotonicInstant.now() >= due else { return }
        do {
            let deleted = try store.deleteRows(before: retentionCutoff())
            if deleted > 0 { lock.withLock { $0.retentionDeletedRows += deleted } }
            nextRetention = MonotonicInstant.now().advanced(by: configuration.retentionInterval)
        } catch {
            recordFault(error, lock)
        }
    }

    /// The start of the UTC day `retentionDays` ago: rows go a whole day at a time, so the rollups
    /// (whose coarsest buckets are days) lose exactly the rows the hits lose.
    private func retentionCutoff() -> Int64 {
        RollupGrain.coarsest.bucketStart(WallClock.nowMilliseconds() - Int64(configuration.retentionDays) * Self.millisecondsPerDay)
    }

    /// The earliest of: the end of the backoff (while failing), the next retention run (while
    /// healthy), the stop deadline (once stopping); `nil` to sleep until signalled.
    private func nextWakeUp() -> MonotonicInstant? {
        var wakeUp: MonotonicInstant?
        func consider(_ instant: MonotonicInstant?) {
            guard let instant else { return }
            wakeUp = wakeUp.map { min($0, instant) } ?? instant
        }
        if isFailing {
            consider(nextAttempt)
        } else if store != nil {
            consider(nextRetention)
            consider(nextCatchUp)
        }
        consider(stopDeadline)
        return wakeUp
    }
}
