/// The writer thread's decisions, kept apart from the thread: when to open the database, write a
/// batch, run retention, back off after a failure, pause so rows gather, and stop. It reads no
/// clock and touches no database, lock or log: its driver (`LogWriterEngine`) passes the time in,
/// asks `next` what to do, does it and reports back (`take`, `opened`, `wrote`, `retained`,
/// `failed`, `storeLost`). A test walks it step by step on a clock of its own.
///
/// Its instants (the backoff, retention, pause and stop deadlines) are durations since the
/// writer started, on the driver's clock (`ContinuousClock` in the server): plain values, because
/// outside the standard library a `ContinuousClock.Instant` is opaque — every copy and `nil` test of
/// an optional one is a call — and the cycle handles several per batch. The retention cut-off is
/// wall time (UTC milliseconds), passed in beside it.
struct WriterCycle {
    /// What the writer does next.
    enum Step: Equatable {
        /// Open the database, dropping any store still held; with a cut-off, delete the rows before
        /// it as part of the open. Then `opened`, or `failed`.
        case open(retentionCutoff: Int64?)
        /// Insert `batch` and `droppedToRecord` in one transaction — or, when `insert` is false (an
        /// open with nothing to insert), nothing — then `wrote`, or `failed`. Either way a success
        /// is what reports the database healthy.
        case write(insert: Bool)
        /// Delete the rows before `cutoff` (UTC milliseconds), then `retained`, or `failed`.
        case applyRetention(cutoff: Int64)
        /// Sleep until the instant given (none: no limit) or a stop is requested — and, when
        /// `wakingForRecords`, until records are queued — then `take` what is queued. A backoff and a
        /// pause do not wake for records: waking the writer for each request is what they avoid.
        case wait(until: Duration?, wakingForRecords: Bool)
        /// Stopping with everything written: close the database and end.
        case finish
        /// Stopping, the deadline passed with the database failing: count `abandoned` records (and
        /// any still queued) as lost and end.
        case giveUp(abandoned: Int)
    }

    /// After a small batch the writer pauses this long before taking the next one, so that under
    /// steady load rows are committed many at a time instead of one transaction per request: a
    /// batch's fixed work (the rollups' upserts, the commit) costs as much as a few dozen rows.
    /// The records are safe in the journal meanwhile; rows become visible at most this much later,
    /// which no reader of a dashboard or a funnel can tell from at once.
    static let coalescingPause: Duration = .milliseconds(50)
    /// Batches at least this large are followed by no pause: the writer is busy anyway.
    static let coalescingBatchSize: Int = 512
    /// Above this many slots the batch array is not kept for reuse after a burst, so memory goes back.
    private static let reusableBatchCapacity: Int = 8192

    private enum Connection {
        /// Not opened yet, or dropped because its file is gone: open at once.
        case closed
        case open
        /// The last attempt failed; the next waits until `retryAt`.
        case failing(retryAt: Duration)
    }

    private let retentionDays: Int
    private let retentionInterval: Duration
    private let initialRetryDelay: Duration
    private let maximumRetryDelay: Duration

    /// Records taken from the queue and not committed yet; kept across failed attempts.
    private(set) var batch: [LogRecord] = []
    /// Refused records not yet added to the database's count.
    private(set) var droppedToRecord = 0
    /// The stop's deadline, once a `take` has seen the stop request.
    private(set) var stopDeadline: Duration?

    private var connection = Connection.closed
    private var retryDelay: Duration
    /// Set by an open: the attempt it began ends with a write, of nothing if need be, which is
    /// what reports the database reachable again.
    private var writeOwed = false
    private var nextRetention: Duration?
    private var pauseEnd: Duration?

    init(configuration: LogWriterConfiguration) {
        retentionDays = configuration.retentionDays
        retentionInterval = configuration.retentionInterval
        initialRetryDelay = min(configuration.initialRetryDelay, configuration.maximumRetryDelay)
        maximumRetryDelay = configuration.maximumRetryDelay
        retryDelay = initialRetryDelay
    }

    /// Whether a stop has been seen.
    var isStopping: Bool { stopDeadline != nil }

    /// What to do at `now`. `wallMilliseconds` is the same moment in UTC, read only when a retention
    /// cut-off is computed. Asking again without reporting anything gives the same answer.
    func next(now: Duration, wallMilliseconds: @autoclosure () -> Int64) -> Step {
        switch connection {
        case .failing(let retryAt) where now < retryAt:
            // Records that arrive meanwhile wait for the retry; only a stop's deadline cuts it short.
            if let stopDeadline, now >= stopDeadline { return .giveUp(abandoned: batch.count) }
            return .wait(until: Self.earliest(retryAt, stopDeadline), wakingForRecords: false)
        case .closed, .failing:
            return .open(retentionCutoff: retentionDays > 0 ? retentionCutoff(wallMilliseconds()) : nil)
        case .open:
            let hasRows = !batch.isEmpty || droppedToRecord > 0
            if hasRows || writeOwed { return .write(insert: hasRows) }
            if let nextRetention, now >= nextRetention { return .applyRetention(cutoff: retentionCutoff(wallMilliseconds())) }
            if isStopping { return .finish }
            if let pauseEnd, now < pauseEnd { return .wait(until: pauseEnd, wakingForRecords: false) }
            return .wait(until: nextRetention, wakingForRecords: true)
        }
    }

    // MARK: - What the driver reports

    /// Takes records read from the journal into the batch (`records` is left empty), with the count
    /// of records the journal refused that the database does not count yet and, once a stop is
    /// requested, its deadline.
    mutating func take(_ records: inout [LogRecord], droppedRecords: Int, stopDeadline: Duration?) {
        if batch.isEmpty {
            // O(1): the records' array goes on in the batch's old (empty, already sized) storage.
            swap(&batch, &records)
        } else {
            batch.append(contentsOf: records)
            records.removeAll(keepingCapacity: true)
        }
        droppedToRecord = droppedRecords
        if self.stopDeadline == nil { self.stopDeadline = stopDeadline }
    }

    /// Forgets the batch in hand: after a failure the driver reads it again from the journal, from
    /// where the database is (a batch whose commit was answered by a lost connection may be in).
    mutating func discardBatch() {
        batch.removeAll(keepingCapacity: batch.capacity <= Self.reusableBatchCapacity)
    }

    /// The database opened (and retention at open ran) at `now`.
    mutating func opened(at now: Duration) {
        connection = .open
        writeOwed = true
        nextRetention = retentionDays > 0 ? now + retentionInterval : nil
    }

    /// The write succeeded at `now`; returns what it committed. A success ends a backoff.
    mutating func wrote(at now: Duration) -> (records: Int, droppedRecords: Int) {
        let written = (records: batch.count, droppedRecords: droppedToRecord)
        batch.removeAll(keepingCapacity: batch.capacity <= Self.reusableBatchCapacity)
        droppedToRecord = 0
        writeOwed = false
        retryDelay = initialRetryDelay
        let small = written.records > 0 && written.records < Self.coalescingBatchSize
        pauseEnd = small ? now + Self.coalescingPause : nil
        return written
    }

    /// Retention ran at `now`; the next run is one interval later.
    mutating func retained(at now: Duration) {
        nextRetention = now + retentionInterval
    }

    /// An open, write or retention failed at `now`. The driver has dropped the store: the retry
    /// opens afresh (which is what recovers from a deleted folder, a replaced file or a stale lock)
    /// after a delay that doubles with each failure in a row, up to the maximum.
    mutating func failed(at now: Duration) {
        connection = .failing(retryAt: now + retryDelay)
        retryDelay = min(retryDelay * 2, maximumRetryDelay)
        writeOwed = false
    }

    /// The driver dropped a store whose file was deleted or replaced: open again at once.
    mutating func storeLost() {
        connection = .closed
    }

    // MARK: - Helpers

    /// The start of the UTC day `retentionDays` before `wallMilliseconds`: rows go a whole day at a
    /// time, so the rollups (whose coarsest buckets are days) lose exactly the rows the hits lose.
    private func retentionCutoff(_ wallMilliseconds: Int64) -> Int64 {
        RollupGrain.coarsest.bucketStart(wallMilliseconds - Int64(retentionDays) * RollupGrain.day.milliseconds)
    }

    private static func earliest(_ first: Duration?, _ second: Duration?) -> Duration? {
        guard let first else { return second }
        guard let second else { return first }
        return min(first, second)
    }
}
