import Foundation
import Glibc
import Logging

/// The machinery behind `LogWriter`: the shared queue and counters, and the thread that carries out
/// what `WriterCycle` decides. Kept apart from `LogWriter` so the thread holds this object, not the
/// public handle, and releasing the handle can still stop the thread.
final class LogWriterEngine: Sendable {
    let configuration: LogWriterConfiguration
    let lock: WriterStateLock
    /// When the writer started, on its one clock (`ContinuousClock`): its cycle counts time from here
    /// (`WriterCycle`).
    let start: ContinuousClock.Instant

    init(configuration: LogWriterConfiguration) {
        self.configuration = configuration
        var state = LogWriterState()
        state.queue.reserveCapacity(min(max(configuration.queueCapacity, 0), 1024))
        lock = WriterStateLock(state)
        start = ContinuousClock.now
    }

    private var logger: Logger { configuration.logger }
    private var databaseMetadata: Logger.Metadata { ["database": "\(configuration.database.displayName)"] }

    // MARK: - Called from any thread

    /// Runs on every logged request: a lock for an array append, and no clock read — unless the
    /// queue is full, when it waits up to `fullQueueWait` for the writer to commit a batch.
    ///
    /// The record is moved into the queue, never copied: a copy of its two dozen fields, and the
    /// release of it, cost about 1,000 instructions a row.
    func enqueue(_ record: consuming LogRecord) -> Bool {
        let capacity = configuration.queueCapacity
        let wait = configuration.fullQueueWait
        var pending = Optional(record)
        let outcome = lock.withLock { state -> EnqueueOutcome in
            let outcome = Self.place(&pending, in: &state, capacity: capacity)
            if outcome == .full, wait <= .zero { state.dropped += 1 }
            return outcome
        }
        var accepted = outcome == .queued
        if outcome == .full, wait > .zero {
            // Woken by every commit (`progressMade`); no wait while the writer fails, because then
            // nothing drains the queue, nor once a stop is requested.
            accepted = lock.withLock(
                waitingFor: .progressMade, timeout: wait,
                while: { $0.health != .failing && !$0.stopRequested && !$0.writerExited && $0.queue.count + $0.inFlight >= capacity }
            ) { state in
                state.waitedForRoom += 1
                let outcome = Self.place(&pending, in: &state, capacity: capacity)
                if outcome == .full { state.dropped += 1 }
                return outcome == .queued
            }
        }
        // Outside the lock, so the woken writer does not immediately block on it.
        if accepted { lock.signal(.workArrived) }
        return accepted
    }

    private enum EnqueueOutcome { case queued, full, stopped }

    /// Moves `record` into the queue if there is room and no stop was requested (counting a refusal
    /// after a stop); it stays in `record` otherwise.
    private static func place(_ record: inout LogRecord?, in state: inout LogWriterState, capacity: Int) -> EnqueueOutcome {
        if state.stopRequested {
            state.rejectedAfterStop += 1
            return .stopped
        }
        guard state.queue.count + state.inFlight < capacity, let moved = record.take() else { return .full }
        state.queue.append(moved)
        state.enqueued += 1
        return .queued
    }

    func status() -> LogWriterStatus {
        lock.withLock { snapshot($0) }
    }

    func waitForFirstOpenAttempt() {
        lock.withLock(waitingFor: .progressMade, timeout: nil, while: { !$0.firstOpenAttempted && !$0.writerExited }) { _ in }
    }

    /// Waits until `condition` holds for the status, or `timeout` passes, or the writer ends;
    /// returns whether it holds. Checked again each time the writer makes progress.
    func waitForStatus(timeout: Duration, until condition: (LogWriterStatus) -> Bool) -> Bool {
        lock.withLock(waitingFor: .progressMade, timeout: timeout, while: { !$0.writerExited && !condition(snapshot($0)) }) {
            condition(snapshot($0))
        }
    }

    func drain(timeout: Duration) -> Bool {
        // Records are written in the order they were queued, so `written` reaching the count at the
        // time of the call means every one of those records is in the database.
        let target = lock.withLock { $0.enqueued }
        return waitForStatus(timeout: timeout) { $0.written >= target }
    }

    func stop(timeout: Duration) -> LogWriterStatus {
        lock.withLock { state in
            guard !state.stopRequested else { return }
            state.stopRequested = true
            state.stopDeadline = elapsed() + timeout
        }
        lock.signal(.workArrived)
        lock.signal(.stopRequested)
        // Records waiting for room in a full queue give up now rather than at their deadline.
        lock.broadcast(.progressMade)
        lock.withLock(waitingFor: .progressMade, timeout: nil, while: { !$0.writerExited }) { _ in }
        return status()
    }

    /// Starts the writer thread: a plain detached pthread that holds a strong reference to the engine
    /// until its loop returns. A real thread, not a task, because it blocks in the database.
    func startThread() throws {
        switch BlockingThread.start(named: "linkhost-log", { self.run() }) {
        case .success(let thread): pthread_detach(thread)
        case .failure(let failure): throw LogError.writerThreadNotStarted(reason: failure.reason)
        }
    }

    private func snapshot(_ state: LogWriterState) -> LogWriterStatus {
        state.snapshot(database: configuration.database.displayName, queueCapacity: configuration.queueCapacity)
    }

    // MARK: - The writer thread

    /// Now, on the writer's clock, as its cycle counts time.
    private func elapsed() -> Duration {
        start.duration(to: .now)
    }

    /// The writer loop: asks the cycle what to do, does it, and tells it how that went. The store
    /// lives here, on the writer thread's stack only, which is why it may be a non-`Sendable` connection.
    /// Each step returns when it was done, read from the clock at most once: that time dates the
    /// outcome, and the next decision and its wait are made at it (nothing in between takes time).
    private func run() {
        var cycle = WriterCycle(configuration: configuration)
        var store: (any LogStore)?
        var now = elapsed()
        while let done = carryOut(cycle.next(now: now, wallMilliseconds: WallClock.nowMilliseconds()), at: now, &cycle, &store) {
            now = done
        }
        // Closes the database (checkpointing its WAL).
        store = nil
        lock.withLock { $0.writerExited = true }
        lock.broadcast(.progressMade)
    }

    /// Does what `step` (decided at `now`) says and reports the outcome to `cycle`; returns when it
    /// was done, or `nil` once the writer is finished.
    private func carryOut(_ step: WriterCycle.Step, at now: Duration, _ cycle: inout WriterCycle, _ store: inout (any LogStore)?) -> Duration? {
        switch step {
        case .open(let retentionCutoff):
            // Close first: the old connection removes its WAL by name when it closes, which must
            // happen before a new database gets a WAL under that name.
            store = nil
            do {
                let opened = try configuration.database.openStore(
                    LogStoreOptions(busyTimeout: configuration.busyTimeout, maximumTextBytes: configuration.maximumTextBytes))
                if let retentionCutoff { recordRetention(deleted: try opened.deleteRows(before: retentionCutoff)) }
                store = opened
                let done = elapsed()
                cycle.opened(at: done, degraded: opened.degradation != nil)
                return done
            } catch {
                return fail(error, &cycle, &store)
            }
        case .write(let insert):
            guard let current = currentStore(&cycle, &store) else { return now }
            do {
                if insert {
                    cycle.capTexts(to: configuration.maximumTextBytes)
                    try current.insert(cycle.batch, droppedRecords: cycle.droppedToRecord)
                }
            } catch {
                return fail(error, &cycle, &store)
            }
            let degradation = current.degradation
            let wasDegraded = cycle.isDegraded
            // Nothing inserted took no time worth a reading.
            let done = insert ? elapsed() : now
            let written = cycle.wrote(at: done, degraded: degradation != nil)
            recordSuccess(written, degradation: degradation, wasDegraded: wasDegraded)
            return done
        case .applyRetention(let cutoff):
            guard let current = currentStore(&cycle, &store) else { return now }
            do {
                recordRetention(deleted: try current.deleteRows(before: cutoff))
                let done = elapsed()
                cycle.retained(at: done)
                return done
            } catch {
                return fail(error, &cycle, &store)
            }
        case .wait(let deadline, let wakingForRecords):
            let stopSeen = cycle.isStopping
            var cutShort = false
            lock.withLock(
                waitingFor: wakingForRecords ? .workArrived : .stopRequested, timeout: deadline.map { $0 - now },
                while: { state in
                    if state.stopRequested, !stopSeen { return false }
                    return !wakingForRecords || state.queue.isEmpty
                }
            ) { state in
                cutShort = (state.stopRequested && !stopSeen) || (wakingForRecords && !state.queue.isEmpty)
                cycle.take(&state.queue, droppedRecords: state.dropped - state.droppedInDatabase, stopDeadline: state.stopDeadline)
                state.inFlight = cycle.batch.count
            }
            // A wait that ran to its deadline ended there; one with no deadline leaves nothing the
            // cycle decides next depending on how long it took (no backoff, pause, retention or
            // catch-up is pending). Only a wait cut short by records or a stop needs a reading.
            guard let deadline else { return now }
            return cutShort ? elapsed() : deadline
        case .finish:
            return nil
        case .giveUp(let abandoned):
            let lost = lock.withLock { state -> Int in
                let lost = abandoned + state.queue.count
                state.abandonedAtStop += lost
                state.queue.removeAll()
                state.inFlight = 0
                return lost
            }
            logger.error("stopping while the hit log database fails: \(lost) records could not be written", metadata: databaseMetadata)
            return nil
        }
    }

    /// The open store, or `nil` after dropping one whose file was deleted or replaced (the cycle
    /// then opens the database again).
    private func currentStore(_ cycle: inout WriterCycle, _ store: inout (any LogStore)?) -> (any LogStore)? {
        guard let current = store, current.isStillCurrent else {
            if store != nil { logger.warning("the hit log database was deleted or replaced; starting it again", metadata: databaseMetadata) }
            store = nil
            cycle.storeLost()
            return nil
        }
        return current
    }

    /// Drops the store (the next attempt opens afresh) and reports the failure; returns when.
    private func fail(_ error: any Error, _ cycle: inout WriterCycle, _ store: inout (any LogStore)?) -> Duration {
        store = nil
        let done = elapsed()
        cycle.failed(at: done)
        recordFault(error)
        return done
    }

    private func recordSuccess(_ written: (records: Int, droppedRecords: Int), degradation: String?, wasDegraded: Bool) {
        if (degradation != nil) != wasDegraded {
            if let degradation {
                logger.error("the hit log keeps rows aside: \(degradation)", metadata: databaseMetadata)
            } else {
                logger.notice("the hit log rows kept aside are all written", metadata: databaseMetadata)
            }
        }
        let recovered = lock.withLock { state -> Bool in
            let recovered = state.consecutiveFailures > 0
            state.written += written.records
            if written.records > 0 { state.batches += 1 }
            state.droppedInDatabase += written.droppedRecords
            state.inFlight = 0
            state.firstOpenAttempted = true
            state.health = degradation == nil ? .healthy : .degraded
            if let degradation { state.lastError = degradation }
            state.failingSinceMilliseconds = nil
            state.consecutiveFailures = 0
            return recovered
        }
        lock.broadcast(.progressMade)
        if recovered {
            var metadata = databaseMetadata
            metadata["caughtUp"] = "\(written.records)"
            logger.notice("the hit log database is being written again", metadata: metadata)
        }
    }

    private func recordFault(_ error: any Error) {
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
            var metadata = databaseMetadata
            metadata["error"] = "\(message)"
            metadata["pending"] = "\(pending)"
            logger.error("cannot write the hit log database; keeping records in memory and retrying", metadata: metadata)
        }
    }

    private func recordRetention(deleted: Int) {
        guard deleted > 0 else { return }
        lock.withLock { $0.retentionDeletedRows += deleted }
        lock.broadcast(.progressMade)
    }
}
