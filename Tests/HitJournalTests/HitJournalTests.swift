import Foundation
import HitJournal
import Testing

/// The journal's logic in memory: append, read back in order, completions, wrap, full, reclaim and
/// reopen, holes a kill leaves, torn and corrupt records. No file, no thread, no clock.
@Suite("Hit journal")
struct HitJournalTests {
    /// A payload that says which record it is, `size` bytes long.
    static func payload(_ number: Int, size: Int = 40) -> [UInt8] {
        let text = Array("record \(number) ".utf8)
        return (0..<size).map { text[$0 % text.count] }
    }

    @discardableResult
    static func append(_ journal: HitJournal, _ number: Int, size: Int = 40, completed: Bool = true) -> JournalTicket? {
        let bytes = payload(number, size: size)
        return journal.append(
            payloadCount: bytes.count, completion: completed ? JournalCompletion(outcome: .sent, durationMicroseconds: UInt64(number)) : nil
        ) { buffer in buffer.copyBytes(from: bytes) }
    }

    /// Everything the reader delivers from where it is: (payload, completion) pairs, and why it stopped.
    static func readAll(_ reader: inout JournalReader, acceptPendingBefore: UInt64 = 0) -> ([([UInt8], JournalCompletion?)], JournalReader.Stop) {
        var entries: [([UInt8], JournalCompletion?)] = []
        var stop = JournalReader.Stop.limit
        while stop == .limit {
            stop = reader.read(maximumRecords: 7, maximumBytes: 1 << 20, acceptPendingBefore: acceptPendingBefore) { entry in
                entries.append((Array(entry.payload), entry.completion))
            }
        }
        return (entries, stop)
    }

    static func journal(_ storage: MemoryJournalStorage) throws -> HitJournal {
        try HitJournal(storage: storage, path: "memory")
    }

    @Test("records come back in order with their completions; a pending one holds the reader until it completes")
    func appendAndRead() throws {
        let storage = MemoryJournalStorage(size: 4096 + 64 * 1024)
        let journal = try Self.journal(storage)
        for number in 0..<20 { Self.append(journal, number) }
        let pending = try #require(Self.append(journal, 20, completed: false))
        Self.append(journal, 21)
        var reader = JournalReader(journal)
        var (entries, stop) = Self.readAll(&reader)
        #expect(entries.map(\.0) == (0..<20).map { Self.payload($0) })
        #expect(entries.map { $0.1?.durationMicroseconds } == (0..<20).map { UInt64($0) })
        #expect(stop == .completionPending(sequence: pending.sequence))
        journal.complete(pending, JournalCompletion(outcome: .cutShort, durationMicroseconds: 7))
        (entries, stop) = Self.readAll(&reader)
        #expect(entries.map(\.0) == [Self.payload(20), Self.payload(21)])
        #expect(entries.first?.1 == JournalCompletion(outcome: .cutShort, durationMicroseconds: 7))
        #expect(stop == .caughtUp)
        #expect(journal.status.appended == 22)
    }

    @Test("a full ring drops new records and counts them; space comes back once reclaimed, and records wrap around its end")
    func fullThenWrap() throws {
        let storage = MemoryJournalStorage(size: 4096 + 4096)
        let journal = try Self.journal(storage)
        var accepted = 0
        var number = 0
        while Self.append(journal, number, size: 100) != nil {
            accepted += 1
            number += 1
        }
        // 100 bytes of payload and 48 of header, rounded to 160: 25 fit in 4,096.
        #expect(accepted == 4096 / 160)
        #expect(journal.status.droppedFull == 1)
        var reader = JournalReader(journal)
        var (entries, _) = Self.readAll(&reader)
        #expect(entries.count == accepted)
        try journal.reclaim(upTo: reader.position)
        // Now the ring is empty again: the next records wrap past its end with a padding record.
        for next in 100..<120 { #expect(Self.append(journal, next, size: 100) != nil, "record \(next)") }
        (entries, _) = Self.readAll(&reader)
        #expect(entries.map(\.0) == (100..<120).map { Self.payload($0, size: 100) })
    }

    @Test("reopened, a journal reads on from its reclaimed position; the records after it come back, with their completions or without")
    func reopenAfterReclaim() throws {
        let storage = MemoryJournalStorage(size: 4096 + 64 * 1024)
        let journal = try Self.journal(storage)
        for number in 0..<10 { Self.append(journal, number) }
        var reader = JournalReader(journal)
        _ = reader.read(maximumRecords: 4, maximumBytes: 1 << 20) { _ in }
        try journal.reclaim(upTo: reader.position)
        Self.append(journal, 10, completed: false)

        let reopened = try Self.journal(storage.reopened())
        #expect(reopened.identifier == journal.identifier)
        #expect(reopened.recovery.records == 7)
        #expect(reopened.recovery.skippedStretches == 0)
        var again = JournalReader(reopened)
        let (entries, stop) = Self.readAll(&again)
        #expect(entries.map(\.0) == (4..<11).map { Self.payload($0) })
        #expect(entries.last?.1 == nil, "its process ended before the exchange did: outcome unknown")
        #expect(stop == .caughtUp)
        // New records go on after the old ones, with larger sequence numbers.
        let next = try #require(Self.append(reopened, 11))
        #expect(next.sequence == 12)
    }

    @Test("a record whose write never happened (a kill after the reservation) is a hole: the next open steps over it to the records after")
    func holeAfterKill() throws {
        let storage = MemoryJournalStorage(size: 4096 + 64 * 1024)
        let journal = try Self.journal(storage)
        for number in 0..<3 { Self.append(journal, number) }
        storage.tearNextWriteAt.store(0, ordering: .relaxed)  // reserved, nothing written
        Self.append(journal, 3)
        for number in 4..<6 { Self.append(journal, number) }
        // In this process the reader waits: the write might still be under way.
        var live = JournalReader(journal)
        #expect(Self.readAll(&live).1 == .appendUnderWay)

        let reopened = try Self.journal(storage.reopened())
        #expect(reopened.recovery.skippedStretches == 1)
        var reader = JournalReader(reopened)
        let (entries, stop) = Self.readAll(&reader)
        #expect(entries.map(\.0) == [0, 1, 2, 4, 5].map { Self.payload($0) })
        #expect(stop == .caughtUp)
        #expect(reader.skippedStretches == 1)
    }

    @Test("a torn record at the end and a corrupt one in the middle are skipped, counted, and never stop the reader")
    func tornAndCorrupt() throws {
        let storage = MemoryJournalStorage(size: 4096 + 64 * 1024)
        let journal = try Self.journal(storage)
        for number in 0..<8 { Self.append(journal, number) }
        storage.tearNextWriteAt.store(60, ordering: .relaxed)  // half a record: a power loss mid-write
        Self.append(journal, 8)
        // Record 3's payload gets a flipped byte: 4,096 of header page, three records of 96 bytes, into its payload.
        storage.damage(at: 4096 + 3 * 96 + 50)

        let reopened = try Self.journal(storage.reopened())
        var reader = JournalReader(reopened)
        let (entries, stop) = Self.readAll(&reader)
        #expect(entries.map(\.0) == [0, 1, 2, 4, 5, 6, 7].map { Self.payload($0) })
        #expect(stop == .caughtUp)
        #expect(reopened.recovery.skippedStretches == 1, "the middle one; the torn tail is where the records end")
        #expect(reopened.recovery.records == 7)
    }

    @Test("a file truncated under a running journal loses the records it held, and the reader steps over them to the newer ones")
    func truncatedWhileInUse() throws {
        let storage = MemoryJournalStorage(size: 4096 + 64 * 1024)
        let journal = try Self.journal(storage)
        for number in 0..<10 { Self.append(journal, number) }
        storage.truncate(at: 4096 + 3 * 96)
        for number in 10..<13 { Self.append(journal, number) }
        var reader = JournalReader(journal)
        let (entries, stop) = Self.readAll(&reader)
        #expect(entries.map(\.0) == [0, 1, 2, 10, 11, 12].map { Self.payload($0) })
        #expect(stop == .caughtUp)
        #expect(reader.skippedStretches == 1)
    }

    @Test("a failed write is a hole the live reader steps over at once, counted as a failed write")
    func failedWrite() throws {
        let storage = MemoryJournalStorage(size: 4096 + 64 * 1024)
        let journal = try Self.journal(storage)
        Self.append(journal, 0)
        storage.failNextWrite.store(true, ordering: .relaxed)
        #expect(Self.append(journal, 1) == nil)
        Self.append(journal, 2)
        var reader = JournalReader(journal)
        let (entries, stop) = Self.readAll(&reader)
        #expect(entries.map(\.0) == [Self.payload(0), Self.payload(2)])
        #expect(stop == .caughtUp)
        #expect(journal.status.failedWrites == 1)
    }

    @Test("a record long without its completion is delivered without one when the writer says it waited long enough")
    func acceptPending() throws {
        let storage = MemoryJournalStorage(size: 4096 + 64 * 1024)
        let journal = try Self.journal(storage)
        let stuck = try #require(Self.append(journal, 0, completed: false))
        Self.append(journal, 1)
        var reader = JournalReader(journal)
        #expect(Self.readAll(&reader).1 == .completionPending(sequence: stuck.sequence))
        let (entries, stop) = Self.readAll(&reader, acceptPendingBefore: stuck.sequence + 1)
        #expect(entries.map { $0.1 == nil } == [true, false])
        #expect(stop == .caughtUp)
    }

    @Test("a file that is not a journal, or a journal of another format, is refused and left as it is")
    func foreignFiles() throws {
        let foreign = MemoryJournalStorage(size: 8192)
        foreign.poke(Array("SQLite format 3".utf8), at: 0)
        #expect(throws: JournalError.notAJournal(path: "memory")) { try Self.journal(foreign) }
        #expect(foreign.reopened().size == 8192)
        let storage = MemoryJournalStorage(size: 8192)
        _ = try Self.journal(storage)
        storage.poke([9], at: 8)  // format version 9
        #expect(throws: JournalError.otherVersion(path: "memory", found: 9, supported: 1)) { try Self.journal(storage) }
    }

    @Test(
        "one process per journal file: a second open is refused while the first holds it",
        .enabled(if: FileManager.default.isWritableFile(atPath: NSTemporaryDirectory())))
    func oneProcessPerFile() throws {
        let folder = NSTemporaryDirectory() + "/journal-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/hits.hits-journal"
        let first = try HitJournal(path: path, sizeBytes: 1 << 20)
        #expect(throws: JournalError.inUse(path: path)) { try HitJournal(path: path, sizeBytes: 1 << 20) }
        first.close()
        let second = try HitJournal(path: path, sizeBytes: 1 << 20)
        #expect(second.identifier == first.identifier)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.size] as? UInt64) == 1 << 20)
        #expect(second.status.fileProblem == nil)
        try FileManager.default.removeItem(atPath: path)
        #expect(second.status.fileProblem == "the file was deleted while in use")
    }
}
