import BlockingThreads
import Foundation
import Glibc
import HitJournal
import Logging

/// The machinery behind `LogWriter`: the journal the request threads append to, the counters they
/// share with the writer, and the thread that carries out what `WriterCycle` decides — taking the
/// records in journal order (from the in-memory `RecordHandoff`, else from the journal), writing
/// them to the database with the position reached in the same
/// transaction, and handing journal space back once the database holds it durably. Kept apart from
/// `LogWriter` so the thread holds this object, not the public handle.
final class LogWriterEngine: Sendable {
    let configuration: LogWriterConfiguration
    let journal: HitJournal
    let lock: WriterStateLock
    /// When the writer started, on its one clock (`ContinuousClock`): its cycle counts time from here.
    let start: ContinuousClock.Instant
    private let syncer: JournalSyncer
    /// Slots in the hand-off: a record more than this many sequences old cannot be there.
    private let handoffCapacity: UInt64
    /// The `meta` key the database keeps this journal's position under (`LogBatchMarker`).
    private let markerKey: String

    init(configuration: LogWriterConfiguration) throws {
        self.configuration = configuration
        try FolderCreator.createParent(of: configuration.journalPath)
        journal = try HitJournal(path: configuration.journalPath, sizeBytes: configuration.journalSizeBytes)
        markerKey = LogBatchMarker.journalKeyPrefix + journal.identifier
        start = ContinuousClock.now
        let lock = WriterStateLock(LogWriterState())
        self.lock = lock
        handoffCapacity = UInt64(lock.withLock { $0.handoff.capacity })
        let journal = self.journal
        syncer = JournalSyncer(journal: journal, interval: configuration.journalSyncInterval) {
            for (ticket, completion) in lock.withLock({ $0.handoff.unjournaledCompletions() }) { journal.complete(ticket, completion) }
        }
        let recovery = journal.recovery
        var metadata = databaseMetadata
        metadata["journal"] = "\(journal.path)"
        if journal.preallocatedByWriting {
            logger.notice("the file system cannot reserve the journal's blocks (fallocate); zeros were written instead", metadata: metadata)
        }
        if recovery.skippedStretches > 0 {
            metadata["skipped"] = "\(recovery.skippedStretches)"
            metadata["bytes"] = "\(recovery.skippedBytes)"
            logger.warning("the hit journal held holes or damaged records (a kill or a power loss); they were stepped over", metadata: metadata)
        }
    }

    private var logger: Logger { configuration.logger }
    private var databaseMetadata: Logger.Metadata { ["database": "\(configuration.database.displayName)"] }

    // MARK: - Called from any thread

    /// Runs on every logged request: the record goes into the journal (`HitJournal.append`: a
    /// reservation under a mutex and one `pwrite`), then into the hand-off, and the writer is told.
    /// Never waits for the database; a full journal drops the record and counts it.
    func append(_ record: consuming LogRecord, completion: JournalCompletion?) -> JournalTicket? {
        if lock.withLock({ state -> Bool in
            if state.stopRequested { state.rejectedAfterStop += 1 }
            return state.stopRequested
        }) {
            return nil
        }
        var record = consume record
        let size = record.capText(to: min(configuration.maximumTextBytes, LogRecord.journalTextLimit))
        let ticket = journal.append(payloadCount: size, completion: completion) { record.encodeForJournal(into: $0) }
        // Moved, not copied, into the hand-off: an optional the lock's closure can take it out of.
        var handed: LogRecord? = ticket != nil ? consume record : nil
        let (wake, evicted) = lock.withLock { state -> (Bool, (ticket: JournalTicket, completion: JournalCompletion)?) in
            var evicted: (ticket: JournalTicket, completion: JournalCompletion)?
            if let ticket, let record = handed.take() { evicted = state.handoff.put(record, at: ticket, completion: completion) }
            return (state.noteChange(), evicted)
        }
        // A record a lap older lost its place (the writer is that far behind): its outcome goes
        // into the journal, where the writer will read the record.
        if let evicted { journal.complete(evicted.ticket, evicted.completion) }
        if wake { lock.signal(.workArrived) }
        return ticket
    }

    /// The exchange of the record at `ticket` ended.
    func complete(_ ticket: JournalTicket, _ completion: JournalCompletion) {
        let (wake, held) = lock.withLock { state -> (Bool, Bool) in
            let held = state.handoff.complete(ticket, completion)
            state.journalChanges &+= 1
            guard state.awaitedSequence == ticket.sequence else { return (false, held) }
            state.awaitedCompleted = true
            return (state.writerWaiting, held)
        }
        // Written into the journal now only when the writer will read the record from there.
        if !held { journal.complete(ticket, completion) }
        if wake { lock.signal(.workArrived) }
    }

    func status() -> LogWriterStatus {
        let journalStatus = journal.status
        return lock.withLock { snapshot($0, journalStatus) }
    }

    func waitForFirstOpenAttempt() {
        lock.withLock(waitingFor: .progressMade, timeout: nil, while: { !$0.firstOpenAttempted && !$0.writerExited }) { _ in }
    }

    /// Waits until `condition` holds for the status, or `timeout` passes, or the writer ends;
    /// returns whether it holds. Checked again each time the writer makes progress.
    func waitForStatus(timeout: Duration, until condition: (LogWriterStatus) -> Bool) -> Bool {
        let journal = self.journal
        return lock.withLock(waitingFor: .progressMade, timeout: timeout, while: { !$0.writerExited && !condition(snapshot($0, journal.status)) }) {
            condition(snapshot($0, journal.status))
        }
    }

    func drain(timeout: Duration) -> Bool {
        // Records are written in the order of their sequence numbers, so the database holding the
        // last one handed out at the time of the call means it holds every record before it.
        let target = journal.lastSequence
        return lock.withLock(waitingFor: .progressMade, timeout: timeout, while: { !$0.writerExited && $0.committedSequence < target }) {
            $0.committedSequence >= target
        }
    }

    func stop(timeout: Duration) -> LogWriterStatus {
        lock.withLock { state in
            guard !state.stopRequested else { return }
            state.stopRequested = true
            state.stopDeadline = elapsed() + timeout
        }
        lock.signal(.workArrived)
        lock.signal(.stopRequested)
        lock.withLock(waitingFor: .progressMade, timeout: nil, while: { !$0.writerExited }) { _ in }
        syncer.stop()
        journal.close()
        return status()
    }

    /// Starts the writer thread (a plain detached pthread holding the engine until its loop returns;
    /// a real thread, not a task, because it blocks in the database) and the journal's sync thread.
    func startThread() throws {
        switch BlockingThread.start(named: "linkhost-log", { self.run() }) {
        case .success(let thread): pthread_detach(thread)
        case .failure(let failure): throw LogError.writerThreadNotStarted(reason: failure.reason)
        }
        try syncer.start()
    }

    private func snapshot(_ state: LogWriterState, _ journalStatus: JournalStatus) -> LogWriterStatus {
        let pending = Int(journalStatus.lastSequence &- min(state.committedSequence, journalStatus.lastSequence))
        let now = WallClock.nowMilliseconds()
        return LogWriterStatus(
            database: configuration.database.displayName,
            journal: journalStatus,
            enqueued: journalStatus.appended,
            written: state.written,
            recoveredWritten: state.recoveredWritten,
            dropped: journalStatus.droppedFull + journalStatus.failedWrites,
            rejectedAfterStop: state.rejectedAfterStop,
            pending: pending,
            backlogSeconds: pending == 0 ? 0 : state.oldestPendingMilliseconds.map { Double(max(0, now - $0)) / 1000 } ?? 0,
            refused: state.refused,
            cutShort: state.cutShort,
            outcomeUnknown: state.outcomeUnknown,
            skippedDamaged: journalStatus.recovery.skippedStretches + state.undecodable,
            batches: state.batches,
            health: state.health,
            lastError: state.lastError,
            failingSinceMilliseconds: state.failingSinceMilliseconds,
            consecutiveFailures: state.consecutiveFailures,
            retentionDeletedRows: state.retentionDeletedRows,
            abandonedAtStop: state.leftInJournal,
            isStopped: state.writerExited
        )
    }

    // MARK: - The writer thread

    /// Now, on the writer's clock, as its cycle counts time.
    private func elapsed() -> Duration {
        start.duration(to: .now)
    }

    /// What the writer thread keeps between steps: the store (a non-`Sendable` connection, on this
    /// thread's stack only), the reader, and where the batch in hand ends.
    private struct Writer: ~Copyable {
        var store: (any LogStore)?
        var reader: JournalReader
        /// The position after the last record the database holds, as this writer knows it.
        var committed: JournalPosition
        /// The position after the batch in hand.
        var batchEnd: JournalPosition
        /// Records of the batch in hand that an earlier process appended.
        var batchRecovered = 0
        var batchUnknown = 0
        var batchCutShort = 0
        /// `journalChanges` when the journal was last read.
        var seenChanges = 0
        /// Whether the last read stopped at its limit (more is waiting) rather than at the end.
        var moreToRead = false
        /// When journal space was last handed back (`reclaimIfDue`).
        var lastReclaim: Duration = .zero
        /// A record waiting for its completion, and since when (the writer's clock).
        var pendingSince: (sequence: UInt64, since: Duration)?
        /// Dropped records already counted into the database's `meta`.
        var droppedCounted = 0
        /// Completions of the batch in hand that are in memory only (`RecordHandoff`): written into
        /// the journal before it is read again after a failure, and dropped once the batch commits.
        var heldCompletions: [(ticket: JournalTicket, completion: JournalCompletion)] = []
        /// The array a read fills, kept from read to read (the cycle hands its empty batch's storage
        /// back in `take`): a fresh one a read was an allocation of a few hundred kilobytes, and
        /// the page faults of touching it, every time the writer woke.
        var spare: [LogRecord] = []
    }

    /// The writer loop: asks the cycle what to do, does it, and tells it how that went.
    private func run() {
        var cycle = WriterCycle(configuration: configuration)
        let start = journal.start
        var writer = Writer(store: nil, reader: JournalReader(journal), committed: start, batchEnd: start)
        var now = elapsed()
        while let done = carryOut(cycle.next(now: now, wallMilliseconds: WallClock.nowMilliseconds()), at: now, &cycle, &writer) {
            now = done
        }
        // Closes the database (checkpointing its WAL, which makes everything durable).
        let closedCleanly = writer.store != nil
        writer.store = nil
        if closedCleanly { try? journal.reclaim(upTo: writer.committed) }
        lock.withLock { $0.writerExited = true }
        lock.broadcast(.progressMade)
    }

    /// Does what `step` (decided at `now`) says and reports the outcome to `cycle`; returns when it
    /// was done, or `nil` once the writer is finished.
    private func carryOut(_ step: WriterCycle.Step, at now: Duration, _ cycle: inout WriterCycle, _ writer: inout Writer) -> Duration? {
        switch step {
        case .open(let retentionCutoff):
            // Close first: the old connection removes its WAL by name when it closes, which must
            // happen before a new database gets a WAL under that name.
            writer.store = nil
            do {
                let opened = try configuration.database.openStore(
                    LogStoreOptions(busyTimeout: configuration.busyTimeout, maximumTextBytes: configuration.maximumTextBytes))
                if let retentionCutoff { recordRetention(deleted: try opened.deleteRows(before: retentionCutoff)) }
                // Where the database is: what it holds of this journal is never written again (a
                // commit whose answer was lost, an earlier process's rows).
                let mark = try opened.markedSequence(markerKey)
                if let taken = try opened.takeBackupMark() { noteRestore(takenMilliseconds: taken, mark: mark) }
                let marked = UInt64(max(0, mark ?? 0))
                writer.store = opened
                cycle.discardBatch()
                journalHeldCompletions(&writer)
                writer.reader.rewind(to: writer.committed)
                if marked > writer.committed.sequence { writer.committed.sequence = marked }
                lock.withLock { $0.committedSequence = max($0.committedSequence, writer.committed.sequence) }
                let done = elapsed()
                cycle.opened(at: done)
                readJournal(&cycle, &writer, now: done)
                return done
            } catch {
                return fail(error, &cycle, &writer)
            }
        case .write(let insert):
            guard let current = currentStore(&cycle, &writer) else { return now }
            let droppedNow = cycle.droppedToRecord
            let refusedBefore = current.refusedRows
            let hasWork = insert && (!cycle.batch.isEmpty || writer.batchEnd.sequence > writer.committed.sequence || droppedNow > 0)
            do {
                if hasWork {
                    try current.insert(
                        cycle.batch, droppedRecords: droppedNow, marker: LogBatchMarker(key: markerKey, sequence: Int64(writer.batchEnd.sequence)))
                }
            } catch {
                return fail(error, &cycle, &writer)
            }
            let done = hasWork ? elapsed() : now
            let written = cycle.wrote(at: done)
            if hasWork {
                writer.droppedCounted += droppedNow
                writer.committed = writer.batchEnd
                writer.heldCompletions.removeAll(keepingCapacity: true)
            }
            let refused = current.refusedRows - refusedBefore
            recordSuccess(written.records - refused, refused: refused, writer: &writer)
            reclaimIfDue(&writer, current, now: done)
            if writer.moreToRead { readJournal(&cycle, &writer, now: done) }
            return done
        case .applyRetention(let cutoff):
            guard let current = currentStore(&cycle, &writer) else { return now }
            do {
                recordRetention(deleted: try current.deleteRows(before: cutoff))
                let done = elapsed()
                cycle.retained(at: done)
                return done
            } catch {
                return fail(error, &cycle, &writer)
            }
        case .wait(let deadline, let wakingForRecords):
            let stopSeen = cycle.isStopping
            var cutShort = false
            var stopDeadline: Duration?
            let seen = writer.seenChanges
            let more = writer.moreToRead
            // Said before the wait's check, under the same lock an appender takes: one that comes
            // after the check sees it and wakes the writer; one before it is seen by the check.
            if wakingForRecords { lock.withLock { $0.writerWaiting = true } }
            // Held up by a record whose exchange has not ended: no longer than `completionWait`.
            let timeout = deadline.map { $0 - now } ?? (writer.pendingSince != nil ? configuration.completionWait : nil)
            lock.withLock(
                waitingFor: wakingForRecords ? .workArrived : .stopRequested, timeout: timeout,
                while: { state in
                    if state.stopRequested, !stopSeen { return false }
                    guard wakingForRecords else { return true }
                    if more { return false }
                    if state.awaitedSequence != nil { return !state.awaitedCompleted }
                    return state.journalChanges == seen
                }
            ) { state in
                state.writerWaiting = false
                let progress = state.awaitedSequence != nil ? state.awaitedCompleted : state.journalChanges != seen
                cutShort = (state.stopRequested && !stopSeen) || (wakingForRecords && (progress || more))
                stopDeadline = state.stopDeadline
            }
            let done = (deadline == nil || cutShort) ? elapsed() : deadline!
            if writer.store != nil {
                readJournal(&cycle, &writer, now: done, stopDeadline: stopDeadline)
            } else {
                var none: [LogRecord] = []
                cycle.take(&none, droppedRecords: cycle.droppedToRecord, stopDeadline: stopDeadline)
            }
            return done
        case .finish:
            return nil
        case .giveUp:
            journalHeldCompletions(&writer)
            let left = lock.withLock { state -> Int in
                let left = Int(journal.lastSequence &- min(state.committedSequence, journal.lastSequence))
                state.leftInJournal = left
                return left
            }
            logger.error(
                "stopping while the hit log database fails: \(left) records stay in the journal and are written at the next start",
                metadata: databaseMetadata)
            return nil
        }
    }

    /// Reads what the journal holds past the batch in hand into it, up to the batch bound: records
    /// the database already holds are stepped over, and those whose response was not sent in full
    /// leave no row. Reads the change count first, so a change during the read wakes the next wait.
    private func readJournal(_ cycle: inout WriterCycle, _ writer: inout Writer, now: Duration, stopDeadline: Duration? = nil) {
        let (changes, stopAsked) = lock.withLock { ($0.journalChanges, $0.stopDeadline) }
        writer.seenChanges = changes
        // The counters alone (atomics), not the whole status, which looks at the file too.
        let droppedNow = journal.notTaken - writer.droppedCounted
        let room = configuration.maximumBatchRecords - cycle.batch.count
        guard room > 0 else {
            writer.moreToRead = true
            var none: [LogRecord] = []
            cycle.take(&none, droppedRecords: droppedNow, stopDeadline: stopDeadline ?? stopAsked)
            return
        }
        let stopping = cycle.isStopping || stopAsked != nil
        // Past `completionWait`, or once stopping (the listeners have stopped, so every exchange
        // that will end has), a record still without its completion is written as of unknown outcome.
        var acceptBefore: UInt64 = stopping ? .max : 0
        if let pending = writer.pendingSince, now - pending.since >= configuration.completionWait { acceptBefore = pending.sequence + 1 }
        let skipThrough = writer.committed.sequence
        let recoveredEnd = journal.recovery.lastSequence
        var records = writer.spare
        writer.spare = []
        records.removeAll(keepingCapacity: true)
        var undecodable = 0
        var oldest: Int64?
        var (cutShort, unknown, recovered) = (0, 0, 0)
        // Records come from the hand-off while it holds the next one, and from the journal (one at
        // a time past what the last process left, so the hand-off gets the next turn) when not.
        var stop = JournalReader.Stop.caughtUp
        let lastSequence = journal.lastSequence
        var liveReadLimit = 1
        var held = writer.heldCompletions
        writer.heldCompletions = []
        defer { writer.heldCompletions = held }
        reading: while records.count < room {
            var position = writer.reader.position
            var pending = false
            lock.withLock { state in
                taking: while records.count < room {
                    let sequence = position.sequence &+ 1
                    switch state.handoff.take(sequence, acceptPending: sequence < acceptBefore, into: &records) {
                    case .absent: break taking
                    case .pending:
                        pending = true
                        break taking
                    case .record(let end, let completion, let unjournaled):
                        position = end
                        if let unjournaled, let completion { held.append((unjournaled, completion)) }
                        if sequence <= skipThrough {
                            records.removeLast()
                        } else if let completion {
                            if completion.outcome == .cutShort {
                                cutShort += 1
                                records.removeLast()
                            } else {
                                records[records.count - 1].durationMicroseconds = Int64(completion.durationMicroseconds)
                            }
                        } else {
                            records[records.count - 1].durationMicroseconds = -1
                            unknown += 1
                        }
                    }
                }
                state.handoff.read(through: position.sequence)
            }
            if position != writer.reader.position {
                writer.reader.advance(to: position)
                liveReadLimit = 1
            }
            if oldest == nil, let first = records.first { oldest = first.timestampMilliseconds }
            if pending {
                stop = .completionPending(sequence: position.sequence &+ 1)
                break
            }
            if records.count >= room {
                stop = .limit
                break
            }
            // From the file: an earlier process's records all at once; this process's, up to the
            // oldest the hand-off can hold (older ones were pushed out by later laps: a backlog
            // after an outage), else one, then twice as many each time the hand-off still lacks
            // the next (the records a failed batch took out of it), so a long stretch is read in a
            // few reads of the file rather than one a record.
            let next = position.sequence &+ 1
            var limit = liveReadLimit
            if next <= recoveredEnd {
                limit = Int(recoveredEnd - position.sequence)
            } else if lastSequence > handoffCapacity, next <= lastSequence - handoffCapacity {
                limit = max(limit, Int(lastSequence - handoffCapacity - position.sequence))
            }
            limit = min(limit, room - records.count)
            liveReadLimit = min(liveReadLimit * 2, configuration.maximumBatchRecords)
            var delivered = 0
            stop = writer.reader.read(maximumRecords: limit, maximumBytes: 8 << 20, acceptPendingBefore: acceptBefore) { entry in
                delivered += 1
                guard entry.sequence > skipThrough else { return }
                if let completion = entry.completion, completion.outcome == .cutShort {
                    cutShort += 1
                    return
                }
                guard var record = LogRecord(journalPayload: entry.payload) else {
                    undecodable += 1
                    return
                }
                if let completion = entry.completion {
                    record.durationMicroseconds = Int64(completion.durationMicroseconds)
                } else {
                    record.durationMicroseconds = -1
                    unknown += 1
                }
                if entry.sequence <= recoveredEnd { recovered += 1 }
                if oldest == nil { oldest = record.timestampMilliseconds }
                records.append(record)
            }
            let through = writer.reader.position.sequence
            lock.withLock { $0.handoff.read(through: through) }
            // On after the one record a live read takes; a read that ended anywhere else (caught
            // up, an append or an exchange under way, its byte bound) ends this one too.
            guard stop == .limit, delivered == limit else { break }
        }
        writer.batchCutShort += cutShort
        writer.batchUnknown += unknown
        writer.batchRecovered += recovered
        writer.batchEnd = writer.reader.position
        writer.moreToRead = stop == .limit
        if case .completionPending(let sequence) = stop {
            if writer.pendingSince?.sequence != sequence { writer.pendingSince = (sequence, now) }
        } else {
            writer.pendingSince = nil
        }
        // Named under the lock `complete` takes, then looked at once more (in the hand-off, or in
        // the journal for a record read from there): a completion written before this is seen
        // here, one after it wakes the writer.
        let awaited = writer.pendingSince?.sequence
        let inHandoff = lock.withLock { state -> Bool? in
            let inHandoff = awaited.flatMap { state.handoff.hasCompletion($0) }
            state.awaitedSequence = awaited
            state.awaitedCompleted = inHandoff ?? false
            return inHandoff
        }
        if awaited != nil, inHandoff == nil, journal.hasCompletion(at: writer.reader.position.logical) {
            lock.withLock { $0.awaitedCompleted = true }
        }
        if undecodable > 0 || oldest != nil {
            lock.withLock { state in
                state.undecodable += undecodable
                if state.oldestPendingMilliseconds == nil || cycle.batch.isEmpty { state.oldestPendingMilliseconds = oldest }
            }
        }
        cycle.take(&records, droppedRecords: droppedNow, stopDeadline: stopDeadline ?? stopAsked)
        writer.spare = records
        if cycle.batch.isEmpty, writer.batchEnd.sequence > writer.committed.sequence {
            // Only records that leave no row (cut short, undecodable): nothing to commit, and
            // reading them again after a restart changes nothing, so the position moves on at once.
            writer.committed = writer.batchEnd
            let committed = writer.committed.sequence
            lock.withLock { state in
                state.cutShort += writer.batchCutShort
                state.committedSequence = max(state.committedSequence, committed)
            }
            writer.batchCutShort = 0
            lock.broadcast(.progressMade)
        }
    }

    /// Writes the completions the batch in hand held in memory into the journal, which is about to
    /// be read again from the database's position (or left for the next start).
    private func journalHeldCompletions(_ writer: inout Writer) {
        for (ticket, completion) in writer.heldCompletions { journal.complete(ticket, completion) }
        writer.heldCompletions.removeAll(keepingCapacity: true)
    }

    /// Hands journal space back behind what the database holds durably, every sync interval: the
    /// store makes its commits durable first (SQLite, at `synchronous = NORMAL`, syncs its WAL).
    private func reclaimIfDue(_ writer: inout Writer, _ store: any LogStore, now: Duration) {
        guard now - writer.lastReclaim >= configuration.journalSyncInterval || writer.moreToRead else { return }
        guard writer.committed.logical > journal.start.logical else { return }
        writer.lastReclaim = now
        let position = writer.committed
        do {
            try store.makeDurable()
            try journal.reclaim(upTo: position)
        } catch {
            logger.warning("cannot hand hit journal space back yet: \(error)", metadata: databaseMetadata)
        }
    }

    /// The open store, or `nil` after dropping one whose file was deleted or replaced (the cycle
    /// then opens the database again).
    private func currentStore(_ cycle: inout WriterCycle, _ writer: inout Writer) -> (any LogStore)? {
        guard let current = writer.store, current.isStillCurrent else {
            if writer.store != nil { logger.warning("the hit log database was deleted or replaced; starting it again", metadata: databaseMetadata) }
            writer.store = nil
            cycle.storeLost()
            return nil
        }
        return current
    }

    /// Drops the store (the next attempt opens afresh, and reads the batch again from the journal)
    /// and reports the failure; returns when.
    private func fail(_ error: any Error, _ cycle: inout WriterCycle, _ writer: inout Writer) -> Duration {
        writer.store = nil
        writer.batchRecovered = 0
        writer.batchUnknown = 0
        writer.batchCutShort = 0
        let done = elapsed()
        cycle.failed(at: done)
        recordFault(error)
        return done
    }

    private func recordSuccess(_ records: Int, refused: Int = 0, writer: inout Writer) {
        let committed = writer.committed.sequence
        let (recovered, unknown, cutShort) = (writer.batchRecovered, writer.batchUnknown, writer.batchCutShort)
        writer.batchRecovered = 0
        writer.batchUnknown = 0
        writer.batchCutShort = 0
        let wasFailing = lock.withLock { state -> Bool in
            let wasFailing = state.consecutiveFailures > 0
            state.written += records
            state.refused += refused
            state.recoveredWritten += recovered
            state.outcomeUnknown += unknown
            state.cutShort += cutShort
            if records > 0 { state.batches += 1 }
            state.committedSequence = max(state.committedSequence, committed)
            state.oldestPendingMilliseconds = nil
            state.firstOpenAttempted = true
            state.health = .healthy
            state.lastError = nil
            state.failingSinceMilliseconds = nil
            state.consecutiveFailures = 0
            return wasFailing
        }
        lock.broadcast(.progressMade)
        if wasFailing {
            var metadata = databaseMetadata
            metadata["backlog"] = "\(status().pending)"
            logger.notice("the hit log database is being written again; the journal's backlog follows", metadata: metadata)
        }
    }

    private func recordFault(_ error: any Error) {
        let message = "\(error)"
        let began = lock.withLock { state -> Bool in
            let began = state.health == .healthy
            state.health = .failing
            state.lastError = message
            state.failingSinceMilliseconds = state.failingSinceMilliseconds ?? WallClock.nowMilliseconds()
            state.consecutiveFailures += 1
            state.firstOpenAttempted = true
            return began
        }
        lock.broadcast(.progressMade)
        if began {
            var metadata = databaseMetadata
            metadata["error"] = "\(message)"
            metadata["journal"] = "\(journal.path)"
            logger.error("cannot write the hit log database; records wait in the journal while the writer retries", metadata: metadata)
        }
    }

    /// Says, once, how a database restored from a backup meets this journal. Nothing is written
    /// twice or skipped either way: the copy's mark says which of this journal's records it holds
    /// (none, without one), and the writer goes on from there or from the journal's start, the
    /// later of the two. What the journal handed back after the backup (its rows were in the
    /// database the copy replaced) is in neither, and the notice counts it.
    private func noteRestore(takenMilliseconds: Int64, mark: Int64?) {
        let held = UInt64(max(0, mark ?? 0))
        let start = journal.start.sequence
        var metadata = databaseMetadata
        metadata["journal"] = "\(journal.path)"
        metadata["backupTakenAt"] = "\(UTCCalendar.timestampText(milliseconds: takenMilliseconds))"
        var message = "the hit log was restored from a backup; "
        message += mark == nil ? "it holds none of this journal's records" : "it holds this journal's records up to #\(held)"
        if start > held {
            message +=
                "; #\(held + 1)–#\(start) went into the database it replaced and the journal no longer has them:"
                + " up to \(start - held) rows logged since the backup are not in the log"
        }
        message += "; the journal's records from #\(max(start, held) + 1) on are written now"
        logger.notice("\(message)", metadata: metadata)
    }

    private func recordRetention(deleted: Int) {
        guard deleted > 0 else { return }
        lock.withLock { $0.retentionDeletedRows += deleted }
        lock.broadcast(.progressMade)
    }
}
