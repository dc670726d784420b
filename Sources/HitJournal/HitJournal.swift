import Glibc
import Synchronization

/// A local, crash-safe journal of the hit log's records between the request path and the database
/// (store and forward): the request's only log work is `append`, which no database state can block,
/// and a killed process loses nothing it appended. One writer thread reads the records back in
/// order (`JournalReader`), writes them to the database with the position it reached in the same
/// transaction, and hands the space back (`reclaim`) once that transaction is durable.
///
/// Appenders reserve their record's place and sequence number under a mutex (a few dozen
/// instructions), then write it with one `pwrite`, outside the lock, many at once. A record is
/// published by its checksum: a reader that finds one whose checksum does not hold yet knows its
/// writer is still at it, and after a restart (no writer left) that it is a hole left by a kill or
/// a torn write, which is skipped to the next valid record and counted.
///
/// The journal is bounded: when its ring holds `ringSize` bytes not yet reclaimed, `append` drops
/// the record and counts it (`droppedFull`).
///
/// A journal file deleted or truncated under the server is made anew (`replaceIfLost`, run by the
/// writer's sync thread every interval): what the lost file still held is copied into the new one,
/// so a deleted file costs nothing and a truncated one the records in the part cut off.
public final class HitJournal: Sendable {
    /// Where the journal is, for messages.
    public let path: String
    /// This journal's identity (32 hexadecimal digits), made with it: the database keeps the
    /// position reached under it, so a journal made anew never takes another's position for its own.
    public let identifier: String
    /// Bytes in the ring (the file less its header page).
    public let ringSize: UInt64
    /// What was found at open: records left by an earlier process, and holes or corrupt bytes skipped.
    public let recovery: JournalRecovery
    /// Whether the file system could not reserve the file's blocks, so zeros were written instead.
    public let preallocatedByWriting: Bool

    let storage: any JournalStorage
    private let header: JournalLayout.FileHeader
    private let state: Mutex<Reservation>
    /// Appends under way (placed, not yet written) in the even and the odd file generations: a
    /// replacement copies the old file once its count is down to zero.
    private let evenWritesUnderWay = Atomic<Int>(0)
    private let oddWritesUnderWay = Atomic<Int>(0)
    /// Below this logical offset no append is under way any more (what opening found, then what a
    /// replacement copied): a record there that does not check is damage, not a write in progress.
    private let settled: Atomic<UInt64>
    private let replacements = Mutex(Replacements())
    /// The reclaimed position, also read without the lock by `complete` (see there).
    private let reclaimed = Atomic<UInt64>(0)
    private let appendedCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)
    private let failedWrites = Atomic<Int>(0)
    private let lastSyncFailure = Mutex<String?>(nil)

    struct Reservation {
        /// The logical offset the next record goes at.
        var head: UInt64
        var nextSequence: UInt64
        /// Everything before this is reclaimed.
        var tail: UInt64
        var tailSequence: UInt64
        var checkpointGeneration: UInt64
        /// Records whose `pwrite` failed: their place and length, so the reader steps over them.
        var holes: [UInt64: UInt64] = [:]
        /// The file generation appends go to: one more with every replacement of a lost file.
        var fileGeneration: UInt64 = 0
    }

    /// What replacing lost files came to.
    struct Replacements {
        var count = 0
        var last: String?
        var failure: String?
        /// A replacement whose new file is in use but not yet at the path (its last step failed).
        var unfinished = false
    }

    /// Largest record the journal takes: a quarter of the ring, so a few always fit.
    public var largestRecord: Int { Int(min(ringSize / 4, UInt64(UInt32.max))) }

    /// Opens the journal file at `path`, making it `sizeBytes` long when it is not there (or is
    /// empty); an existing journal keeps its own size. Refuses a file that is not a journal, or one
    /// another process holds, and never writes into such a file.
    public convenience init(path: String, sizeBytes: UInt64) throws(JournalError) {
        let file = try JournalFile(path: path, size: sizeBytes)
        try self.init(storage: file, path: path, preallocatedByWriting: file.preallocatedByWriting)
    }

    /// Opens the journal in `storage` (a file, or the tests' bytes in memory): makes its header when
    /// the header page is all zeros, else checks it, and finds where the records end.
    package init(storage: any JournalStorage, path: String, preallocatedByWriting: Bool = false) throws(JournalError) {
        self.storage = storage
        self.path = path
        self.preallocatedByWriting = preallocatedByWriting
        guard storage.size > JournalLayout.headerPageSize + 4 * UInt64(JournalLayout.recordHeaderSize) else {
            throw .cannotOpen(path: path, reason: "it is \(storage.size) bytes, too small for a journal")
        }
        let page = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(JournalLayout.headerPageSize), alignment: 16)
        defer { page.deallocate() }
        page.initializeMemory(as: UInt8.self, repeating: 0)
        _ = storage.read(into: page, at: 0)
        let header: JournalLayout.FileHeader
        var checkpoint = JournalLayout.Checkpoint(generation: 1, logical: 0, sequence: 0)
        switch JournalLayout.decodeFileHeader(UnsafeRawBufferPointer(page)) {
        case .foreign: throw .notAJournal(path: path)
        case .otherVersion(let found): throw .otherVersion(path: path, found: found, supported: JournalLayout.formatVersion)
        case .zeros:
            // A new file (or one whose making was cut short before its header): made now.
            var identifier = [UInt8](repeating: 0, count: 16)
            Self.fillRandom(&identifier)
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            header = JournalLayout.FileHeader(
                ringSize: (storage.size - JournalLayout.headerPageSize) & ~UInt64(JournalLayout.alignment - 1), identifier: identifier,
                createdMilliseconds: UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec / 1_000_000))
            JournalLayout.encodeFileHeader(header, into: page)
            for slot in JournalLayout.checkpointSlots {
                JournalLayout.encodeCheckpoint(checkpoint, into: UnsafeMutableRawBufferPointer(rebasing: page[Int(slot)..<(Int(slot) + 40)]))
            }
            try storage.write(UnsafeRawBufferPointer(page), at: 0)
            try storage.sync()
        case .journal(let found):
            guard found.ringSize >= 4 * UInt64(JournalLayout.recordHeaderSize), found.ringSize % UInt64(JournalLayout.alignment) == 0,
                found.ringSize <= storage.size - JournalLayout.headerPageSize
            else {
                throw .cannotOpen(path: path, reason: "its header says \(found.ringSize) bytes of records, but the file holds \(storage.size)")
            }
            header = found
            let slots = JournalLayout.checkpointSlots.compactMap { slot in
                JournalLayout.decodeCheckpoint(UnsafeRawBufferPointer(rebasing: page[Int(slot)..<(Int(slot) + 40)]))
            }
            guard let newest = slots.max(by: { $0.generation < $1.generation }) else {
                throw .cannotOpen(path: path, reason: "both copies of its reclaimed position are damaged; move it away to start a new one")
            }
            checkpoint = newest
        }
        ringSize = header.ringSize
        self.header = header
        identifier = header.identifier.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
        let found = JournalRecovery.scan(storage, ringSize: header.ringSize, from: checkpoint.logical, afterSequence: checkpoint.sequence)
        recovery = found
        settled = Atomic(found.end)
        state = Mutex(
            Reservation(
                head: found.end, nextSequence: found.lastSequence + 1, tail: checkpoint.logical, tailSequence: checkpoint.sequence,
                checkpointGeneration: checkpoint.generation))
        reclaimed.store(checkpoint.logical, ordering: .releasing)
    }

    private static func fillRandom(_ bytes: inout [UInt8]) {
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
    }

    // MARK: - Appending (any thread)

    /// Appends a record of `payloadCount` bytes, which `encode` writes into the buffer it is given,
    /// with its `completion` when it is known already; returns where it went, to `complete` it
    /// later, or `nil` when it was dropped (the ring is full, the record too large, or the write
    /// failed: each counted).
    public func append(
        payloadCount: Int, completion: JournalCompletion? = nil, _ encode: (UnsafeMutableRawBufferPointer) -> Void
    ) -> JournalTicket? {
        let total = JournalLayout.aligned(JournalLayout.recordHeaderSize + payloadCount)
        guard total <= largestRecord else {
            droppedCount.add(1, ordering: .relaxed)
            return nil
        }
        let record = UnsafeMutableRawBufferPointer.allocate(byteCount: total, alignment: JournalLayout.alignment)
        defer { record.deallocate() }
        encode(UnsafeMutableRawBufferPointer(rebasing: record[JournalLayout.recordHeaderSize..<(JournalLayout.recordHeaderSize + payloadCount)]))
        // Zero the alignment slack, so no stale heap bytes go to disk.
        let end = JournalLayout.recordHeaderSize + payloadCount
        if end < total { UnsafeMutableRawBufferPointer(rebasing: record[end..<total]).initializeMemory(as: UInt8.self, repeating: 0) }
        let ring = ringSize
        let placed = state.withLock { state -> (padding: UInt64, logical: UInt64, sequence: UInt64, generation: UInt64)? in
            let physical = state.head % ring
            let room = ring - physical
            let padding = room < UInt64(total) ? room : 0
            guard state.head + padding + UInt64(total) - state.tail <= ring else { return nil }
            let logical = state.head + padding
            let sequence = state.nextSequence
            state.nextSequence += 1
            state.head = logical + UInt64(total)
            changeWritesUnderWay(of: state.fileGeneration, by: 1)
            return (padding, logical, sequence, state.fileGeneration)
        }
        guard let placed else {
            droppedCount.add(1, ordering: .relaxed)
            return nil
        }
        defer { changeWritesUnderWay(of: placed.generation, by: -1) }
        if placed.padding >= UInt64(JournalLayout.recordHeaderSize) {
            writePadding(at: placed.logical - placed.padding, length: placed.padding, generation: placed.generation)
        }
        let header = JournalLayout.RecordHeader(
            totalLength: UInt32(total), logical: placed.logical, sequence: placed.sequence, payloadLength: UInt32(payloadCount), kind: .record)
        JournalLayout.seal(header, completion: completion?.word(sequence: placed.sequence) ?? 0, in: record)
        do {
            try storage.write(UnsafeRawBufferPointer(record), at: physicalOffset(placed.logical), generation: placed.generation)
        } catch {
            markHole(at: placed.logical, length: UInt64(total))
            return nil
        }
        appendedCount.add(1, ordering: .relaxed)
        return JournalTicket(logical: placed.logical, sequence: placed.sequence, end: placed.logical + UInt64(total))
    }

    /// Writes the completion of the record `ticket` names. A record already reclaimed (its writer
    /// gave up waiting for this completion and wrote its row as of unknown outcome) is left alone:
    /// its place may hold another record by now only a whole lap of the ring later, far beyond
    /// any exchange's life.
    public func complete(_ ticket: JournalTicket, _ completion: JournalCompletion) {
        guard ticket.logical >= reclaimed.load(ordering: .acquiring) else { return }
        var word = completion.word(sequence: ticket.sequence).littleEndian
        let offset = physicalOffset(ticket.logical) + UInt64(JournalLayout.completionOffset)
        let storage = self.storage
        let failed = withUnsafeBytes(of: &word) { bytes -> Bool in
            do {
                try storage.write(bytes, at: offset)
                return false
            } catch {
                return true
            }
        }
        if failed { failedWrites.add(1, ordering: .relaxed) }
    }

    private func writePadding(at logical: UInt64, length: UInt64, generation: UInt64) {
        let padding = UnsafeMutableRawBufferPointer.allocate(byteCount: JournalLayout.recordHeaderSize, alignment: JournalLayout.alignment)
        defer { padding.deallocate() }
        JournalLayout.seal(
            JournalLayout.RecordHeader(totalLength: UInt32(length), logical: logical, sequence: 0, payloadLength: 0, kind: .padding),
            completion: 0, in: padding)
        do {
            try storage.write(UnsafeRawBufferPointer(padding), at: physicalOffset(logical), generation: generation)
        } catch {
            markHole(at: logical, length: length)
        }
    }

    /// Counts the appends writing the file of `generation`; only two files can be written at once.
    private func changeWritesUnderWay(of generation: UInt64, by change: Int) {
        if generation & 1 == 0 {
            evenWritesUnderWay.add(change, ordering: .acquiringAndReleasing)
        } else {
            oddWritesUnderWay.add(change, ordering: .acquiringAndReleasing)
        }
    }

    private func writesUnderWay(of generation: UInt64) -> Int {
        generation & 1 == 0 ? evenWritesUnderWay.load(ordering: .acquiring) : oddWritesUnderWay.load(ordering: .acquiring)
    }

    private func markHole(at logical: UInt64, length: UInt64) {
        failedWrites.add(1, ordering: .relaxed)
        state.withLock { $0.holes[logical] = length }
    }

    func physicalOffset(_ logical: UInt64) -> UInt64 {
        JournalLayout.headerPageSize + logical % ringSize
    }

    // MARK: - The writer's side

    /// Where the next record will go, and everything before it that was reserved.
    public var head: UInt64 { state.withLock { $0.head } }

    /// The last sequence number handed out.
    public var lastSequence: UInt64 { state.withLock { $0.nextSequence - 1 } }

    /// The reclaimed position and the sequence of the last record before it: where a reader starts.
    public var start: JournalPosition {
        state.withLock { JournalPosition(logical: $0.tail, sequence: $0.tailSequence) }
    }

    /// Below this logical offset no append is under way (see `settled`).
    var settledEnd: UInt64 { settled.load(ordering: .acquiring) }

    /// The hole at `logical` (a record whose write failed), and its length.
    func hole(at logical: UInt64) -> UInt64? {
        state.withLock { $0.holes[logical] }
    }

    /// Hands back the space before `position`, which the database holds durably, and records it in
    /// the header page (two slots, written alternately) so a restart reads from there.
    public func reclaim(upTo position: JournalPosition) throws(JournalError) {
        let checkpoint = state.withLock { state -> JournalLayout.Checkpoint? in
            guard position.logical > state.tail, position.logical <= state.head else { return nil }
            state.tail = position.logical
            state.tailSequence = position.sequence
            state.checkpointGeneration += 1
            state.holes = state.holes.filter { $0.key >= position.logical }
            return JournalLayout.Checkpoint(generation: state.checkpointGeneration, logical: position.logical, sequence: position.sequence)
        }
        guard let checkpoint else { return }
        reclaimed.store(checkpoint.logical, ordering: .releasing)
        var slot = [UInt8](repeating: 0, count: JournalLayout.checkpointSize)
        slot.withUnsafeMutableBytes { JournalLayout.encodeCheckpoint(checkpoint, into: $0) }
        let offset = JournalLayout.checkpointSlots[Int(checkpoint.generation % 2)]
        let storage = self.storage
        let result = slot.withUnsafeBytes { bytes -> JournalError? in
            do {
                try storage.write(bytes, at: offset)
                return nil
            } catch let failure as JournalError {
                return failure
            } catch {
                return .io(path: path, operation: "writing the reclaimed position", reason: "\(error)")
            }
        }
        if let result { throw result }
    }

    /// Makes every record appended so far survive a power loss (`fdatasync`); the last failure is
    /// kept for the status until a sync works again.
    public func sync() {
        do {
            try storage.sync()
            lastSyncFailure.withLock { $0 = nil }
        } catch {
            lastSyncFailure.withLock { $0 = error.description }
        }
    }

    /// Syncs and lets another process open the journal: called once this process appends no more
    /// and its writer has finished.
    public func close() {
        sync()
        storage.relinquish()
    }

    /// Whether the record at `logical` has its completion written: one read of its header.
    public func hasCompletion(at logical: UInt64) -> Bool {
        var header = [UInt8](repeating: 0, count: JournalLayout.recordHeaderSize)
        let storage = self.storage
        let offset = physicalOffset(logical)
        let got = header.withUnsafeMutableBytes { storage.read(into: $0, at: offset) }
        guard got == JournalLayout.recordHeaderSize else { return false }
        return header.withUnsafeBytes { bytes in
            let sequence = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            return JournalCompletion(word: JournalLayout.completionWord(in: bytes), sequence: sequence) != nil
        }
    }

    /// Records dropped (full) or lost to a failed write so far: two atomic loads, for the writer's
    /// every read, where `status` would also look at the file.
    public var notTaken: Int {
        droppedCount.load(ordering: .relaxed) + failedWrites.load(ordering: .relaxed)
    }

    /// The counters and fill right now.
    public var status: JournalStatus {
        let (head, tail, sequence, holes) = state.withLock { ($0.head, $0.tail, $0.nextSequence - 1, $0.holes.count) }
        let replaced = replacements.withLock { $0 }
        let problem = storage.loss().map { loss in replaced.failure.map { "\(loss); \($0)" } ?? loss.description }
        return JournalStatus(
            path: path, ringSize: ringSize, usedBytes: head - tail, appended: appendedCount.load(ordering: .relaxed),
            droppedFull: droppedCount.load(ordering: .relaxed), failedWrites: failedWrites.load(ordering: .relaxed), holes: holes,
            lastSequence: sequence, syncFailure: lastSyncFailure.withLock { $0 }, fileProblem: problem ?? replaced.failure,
            replacements: replaced.count, lastReplacement: replaced.last, recovery: recovery)
    }

    // MARK: - A lost file made anew

    /// Makes a new journal file at the path when the one in use was deleted or cut short (never
    /// when another file took its place: that one is somebody's, and left alone). The new file has
    /// the same identity and ring; appends move to it at once, without waiting, and what the lost
    /// file still held between the reclaimed position and the head is copied over once the appends
    /// begun on it have ended. A completion written into that stretch while it is copied may be
    /// overwritten by the copy: its row then has an unknown outcome, never goes missing.
    /// Called on one thread (the writer's sync thread), every interval.
    public func replaceIfLost() {
        if replacements.withLock({ $0.unfinished }) {
            finishReplacement(reason: nil)
            return
        }
        guard let loss = storage.loss(), loss.isReplaceable else { return }
        let old = state.withLock { $0.fileGeneration }
        let page = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(JournalLayout.headerPageSize), alignment: 16)
        defer { page.deallocate() }
        page.initializeMemory(as: UInt8.self, repeating: 0)
        JournalLayout.encodeFileHeader(header, into: page)
        state.withLock { state in
            let checkpoint = JournalLayout.Checkpoint(generation: state.checkpointGeneration, logical: state.tail, sequence: state.tailSequence)
            for slot in JournalLayout.checkpointSlots.map({ Int($0) }) {
                JournalLayout.encodeCheckpoint(checkpoint, into: UnsafeMutableRawBufferPointer(rebasing: page[slot..<(slot + JournalLayout.checkpointSize)]))
            }
        }
        do {
            try storage.beginReplacement(headerPage: UnsafeRawBufferPointer(page), generation: old + 1)
        } catch {
            replacements.withLock { $0.failure = "making a new one failed: \(error)" }
            return
        }
        let storage = self.storage
        let (tail, swapHead) = state.withLock { state in
            state.fileGeneration = old + 1
            storage.use(generation: old + 1)
            return (state.tail, state.head)
        }
        // The appends placed before the switch write the old file: short `pwrite`s, waited out.
        while writesUnderWay(of: old) > 0 { sched_yield() }
        var failure: String?
        var logical = tail
        while logical < swapHead, failure == nil {
            let physical = logical % ringSize
            let length = min(swapHead - logical, ringSize - physical)
            do {
                let start = JournalLayout.headerPageSize + physical
                try storage.copy(physical: start..<(start + length), from: old)
            } catch {
                failure = "copying its records into the new one failed: \(error)"
            }
            logical += length
        }
        // What the copy could not bring (the part a truncation cut off) becomes padding in the new
        // file, so neither the reader nor a restart's scan has to search across it.
        let lost = failure == nil ? padLostStretches(from: tail, to: swapHead, generation: old + 1) : (stretches: 0, bytes: 0)
        settled.store(swapHead, ordering: .releasing)
        // The reclaimed position again, now that reclaims go to the new file: one made before
        // the switch went to the old one.
        state.withLock { state in
            let checkpoint = JournalLayout.Checkpoint(generation: state.checkpointGeneration, logical: state.tail, sequence: state.tailSequence)
            var slot = [UInt8](repeating: 0, count: JournalLayout.checkpointSize)
            slot.withUnsafeMutableBytes { JournalLayout.encodeCheckpoint(checkpoint, into: $0) }
            for offset in JournalLayout.checkpointSlots {
                _ = slot.withUnsafeBytes { bytes in (try? storage.write(bytes, at: offset)) != nil }
            }
        }
        let lostText = lost.stretches == 0 ? "" : ", \(lost.bytes) bytes lost in \(lost.stretches) stretch\(lost.stretches == 1 ? "" : "es")"
        finishReplacement(
            reason: failure.map { "\(loss); a new file was made, but \($0)" }
                ?? "\(loss); a new file was made and \(swapHead - tail - lost.bytes) bytes of records copied into it\(lostText)")
    }

    /// Writes padding records over the stretches of `start..<end` that hold no valid record;
    /// returns how many stretches and bytes.
    private func padLostStretches(from start: UInt64, to end: UInt64, generation: UInt64) -> (stretches: Int, bytes: UInt64) {
        var window = JournalWindow(storage: storage, ringSize: ringSize)
        var position = start
        var lost = (stretches: 0, bytes: UInt64(0))
        while position < end {
            let room = window.room(at: position)
            if room < UInt64(JournalLayout.recordHeaderSize) {
                position += room
                continue
            }
            if let (header, _) = window.record(at: position, readAhead: end - position) {
                position += UInt64(header.totalLength)
                continue
            }
            let next = window.nextValid(after: position, before: end) ?? end
            lost.stretches += 1
            lost.bytes += next - position
            var at = position
            while at < next {
                let piece = min(next - at, window.room(at: at))
                if piece >= UInt64(JournalLayout.recordHeaderSize) { writePadding(at: at, length: piece, generation: generation) }
                at += piece
            }
            window.invalidate()
            position = next
        }
        return lost
    }

    private func finishReplacement(reason: String?) {
        do {
            try storage.endReplacement()
            replacements.withLock { replaced in
                replaced.count += 1
                if let reason { replaced.last = reason }
                replaced.failure = nil
                replaced.unfinished = false
            }
        } catch {
            replacements.withLock { replaced in
                if let reason { replaced.last = reason }
                replaced.failure = "putting the new file in place failed: \(error)"
                replaced.unfinished = true
            }
        }
    }
}

/// Where a record went: what `complete` needs to find it again.
public struct JournalTicket: Sendable, Equatable {
    public let logical: UInt64
    public let sequence: UInt64
    /// The logical offset just past the record: where the next one is read from.
    public let end: UInt64

    package init(logical: UInt64, sequence: UInt64, end: UInt64) {
        self.logical = logical
        self.sequence = sequence
        self.end = end
    }
}

/// A place in the journal: the logical offset of the next record to read, and the sequence of the
/// last record before it (0 for none).
public struct JournalPosition: Sendable, Equatable {
    public var logical: UInt64
    public var sequence: UInt64

    public init(logical: UInt64, sequence: UInt64) {
        self.logical = logical
        self.sequence = sequence
    }
}
