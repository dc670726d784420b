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
    private let state: Mutex<Reservation>
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
        identifier = header.identifier.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
        let found = JournalRecovery.scan(storage, ringSize: header.ringSize, from: checkpoint.logical, afterSequence: checkpoint.sequence)
        recovery = found
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
        let placed = state.withLock { state -> (padding: UInt64, logical: UInt64, sequence: UInt64)? in
            let physical = state.head % ring
            let room = ring - physical
            let padding = room < UInt64(total) ? room : 0
            guard state.head + padding + UInt64(total) - state.tail <= ring else { return nil }
            let logical = state.head + padding
            let sequence = state.nextSequence
            state.nextSequence += 1
            state.head = logical + UInt64(total)
            return (padding, logical, sequence)
        }
        guard let placed else {
            droppedCount.add(1, ordering: .relaxed)
            return nil
        }
        if placed.padding >= UInt64(JournalLayout.recordHeaderSize) {
            writePadding(at: placed.logical - placed.padding, length: placed.padding)
        }
        let header = JournalLayout.RecordHeader(
            totalLength: UInt32(total), logical: placed.logical, sequence: placed.sequence, payloadLength: UInt32(payloadCount), kind: .record)
        JournalLayout.seal(header, completion: completion?.word(sequence: placed.sequence) ?? 0, in: record)
        do {
            try storage.write(UnsafeRawBufferPointer(record), at: physicalOffset(placed.logical))
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

    private func writePadding(at logical: UInt64, length: UInt64) {
        let padding = UnsafeMutableRawBufferPointer.allocate(byteCount: JournalLayout.recordHeaderSize, alignment: JournalLayout.alignment)
        defer { padding.deallocate() }
        JournalLayout.seal(
            JournalLayout.RecordHeader(totalLength: UInt32(length), logical: logical, sequence: 0, payloadLength: 0, kind: .padding),
            completion: 0, in: padding)
        do {
            try storage.write(UnsafeRawBufferPointer(padding), at: physicalOffset(logical))
        } catch {
            markHole(at: logical, length: length)
        }
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
        return JournalStatus(
            path: path, ringSize: ringSize, usedBytes: head - tail, appended: appendedCount.load(ordering: .relaxed),
            droppedFull: droppedCount.load(ordering: .relaxed), failedWrites: failedWrites.load(ordering: .relaxed), holes: holes,
            lastSequence: sequence, syncFailure: lastSyncFailure.withLock { $0 }, fileProblem: storage.lossCheck(), recovery: recovery)
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
