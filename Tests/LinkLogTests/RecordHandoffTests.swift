import HitJournal
import Testing

@testable import LinkLog

/// The writer's in-memory hand-off, step by step: what it gives back, and what it leaves to the journal.
struct RecordHandoffTests {
    private static func ticket(_ sequence: UInt64) -> JournalTicket {
        JournalTicket(logical: (sequence - 1) * 64, sequence: sequence, end: sequence * 64)
    }

    private static let sent = JournalCompletion(outcome: .sent, durationMicroseconds: 42)

    @Test("a record is taken once, with its completion and where it ends; a second take finds nothing")
    func takeOnce() throws {
        var handoff = RecordHandoff(capacity: 8)
        handoff.put(Sample.record(path: "/one"), at: Self.ticket(1), completion: nil)
        #expect(handoff.hasCompletion(1) == false)
        var batch: [LogRecord] = []
        #expect(handoff.take(1, acceptPending: false, into: &batch) == .pending)
        #expect(batch.isEmpty)
        handoff.complete(Self.ticket(1), Self.sent)
        #expect(handoff.hasCompletion(1) == true)
        #expect(handoff.take(1, acceptPending: false, into: &batch) == .record(end: JournalPosition(logical: 64, sequence: 1), completion: Self.sent))
        #expect(batch.map(\.path) == ["/one"])
        #expect(handoff.take(1, acceptPending: false, into: &batch) == .absent)
        #expect(batch.count == 1)
        #expect(handoff.hasCompletion(1) == nil)
    }

    @Test("a pending record is given without its completion only when the writer accepts that")
    func acceptPending() throws {
        var handoff = RecordHandoff(capacity: 8)
        handoff.put(Sample.record(), at: Self.ticket(1), completion: nil)
        var batch: [LogRecord] = []
        #expect(handoff.take(1, acceptPending: true, into: &batch) == .record(end: JournalPosition(logical: 64, sequence: 1), completion: nil))
        #expect(batch.count == 1)
    }

    @Test("a later lap takes the slot: the earlier record is left to the journal, and its late completion changes nothing")
    func lapOverwrites() throws {
        var handoff = RecordHandoff(capacity: 4)
        for sequence in UInt64(1)...5 { handoff.put(Sample.record(path: "/\(sequence)"), at: Self.ticket(sequence), completion: Self.sent) }
        var batch: [LogRecord] = []
        #expect(handoff.take(1, acceptPending: true, into: &batch) == .absent)
        handoff.complete(Self.ticket(1), JournalCompletion(outcome: .cutShort, durationMicroseconds: 0))
        #expect(handoff.take(5, acceptPending: false, into: &batch) == .record(end: JournalPosition(logical: 320, sequence: 5), completion: Self.sent))
        #expect(batch.map(\.path) == ["/5"])
    }

    @Test("a record the writer has read past in the journal is not kept; after a rewind the next ones are")
    func readThrough() throws {
        var handoff = RecordHandoff(capacity: 8)
        handoff.read(through: 3)
        handoff.put(Sample.record(), at: Self.ticket(3), completion: Self.sent)
        #expect(handoff.hasCompletion(3) == nil)
        handoff.put(Sample.record(), at: Self.ticket(4), completion: Self.sent)
        #expect(handoff.hasCompletion(4) == true)
    }

    @Test("the capacity is rounded up to a power of two")
    func capacity() throws {
        var handoff = RecordHandoff(capacity: 5)
        for sequence in UInt64(1)...8 { handoff.put(Sample.record(), at: Self.ticket(sequence), completion: Self.sent) }
        for sequence in UInt64(1)...8 { #expect(handoff.hasCompletion(sequence) == true) }
    }
}
