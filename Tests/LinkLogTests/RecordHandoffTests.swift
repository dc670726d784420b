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
        _ = handoff.put(Sample.record(path: "/one"), at: Self.ticket(1), completion: nil)
        #expect(handoff.hasCompletion(1) == false)
        var batch: [LogRecord] = []
        #expect(handoff.take(1, acceptPending: false, into: &batch) == .pending)
        #expect(batch.isEmpty)
        let held = handoff.complete(Self.ticket(1), Self.sent)
        #expect(held, "held here, so not written into the journal now")
        #expect(handoff.hasCompletion(1) == true)
        #expect(
            handoff.take(1, acceptPending: false, into: &batch)
                == .record(end: JournalPosition(logical: 64, sequence: 1), completion: Self.sent, unjournaled: Self.ticket(1)))
        #expect(batch.map(\.path) == ["/one"])
        #expect(handoff.take(1, acceptPending: false, into: &batch) == .absent)
        #expect(batch.count == 1)
        #expect(handoff.hasCompletion(1) == nil)
    }

    @Test("a pending record is given without its completion only when the writer accepts that")
    func acceptPending() throws {
        var handoff = RecordHandoff(capacity: 8)
        _ = handoff.put(Sample.record(), at: Self.ticket(1), completion: nil)
        var batch: [LogRecord] = []
        let taken = handoff.take(1, acceptPending: true, into: &batch)
        #expect(taken == .record(end: JournalPosition(logical: 64, sequence: 1), completion: nil, unjournaled: nil))
        #expect(batch.count == 1)
    }

    @Test("a later lap takes the slot: the earlier record is left to the journal, and its late completion changes nothing")
    func lapOverwrites() throws {
        var handoff = RecordHandoff(capacity: 4)
        for sequence in UInt64(1)...5 { _ = handoff.put(Sample.record(path: "/\(sequence)"), at: Self.ticket(sequence), completion: Self.sent) }
        var batch: [LogRecord] = []
        #expect(handoff.take(1, acceptPending: true, into: &batch) == .absent)
        let held = handoff.complete(Self.ticket(1), JournalCompletion(outcome: .cutShort, durationMicroseconds: 0))
        #expect(!held, "not here: the journal gets it")
        let taken = handoff.take(5, acceptPending: false, into: &batch)
        #expect(taken == .record(end: JournalPosition(logical: 320, sequence: 5), completion: Self.sent, unjournaled: nil))
        #expect(batch.map(\.path) == ["/5"])
    }

    @Test("a record the writer has read past in the journal is not kept; after a rewind the next ones are")
    func readThrough() throws {
        var handoff = RecordHandoff(capacity: 8)
        handoff.read(through: 3)
        _ = handoff.put(Sample.record(), at: Self.ticket(3), completion: Self.sent)
        #expect(handoff.hasCompletion(3) == nil)
        _ = handoff.put(Sample.record(), at: Self.ticket(4), completion: Self.sent)
        #expect(handoff.hasCompletion(4) == true)
    }

    @Test("the capacity is rounded up to a power of two")
    func capacity() throws {
        var handoff = RecordHandoff(capacity: 5)
        for sequence in UInt64(1)...8 { _ = handoff.put(Sample.record(), at: Self.ticket(sequence), completion: Self.sent) }
        for sequence in UInt64(1)...8 { #expect(handoff.hasCompletion(sequence) == true) }
    }

    @Test("the sync writes each completion held only in memory once; taken records and journaled ones are not written again")
    func unjournaledCompletions() throws {
        var handoff = RecordHandoff(capacity: 8)
        _ = handoff.put(Sample.record(), at: Self.ticket(1), completion: Self.sent)  // journaled with the record
        for sequence in UInt64(2)...4 { _ = handoff.put(Sample.record(), at: Self.ticket(sequence), completion: nil) }
        let held = [handoff.complete(Self.ticket(2), Self.sent), handoff.complete(Self.ticket(3), Self.sent)]
        #expect(held == [true, true])
        var batch: [LogRecord] = []
        _ = handoff.take(2, acceptPending: false, into: &batch)
        let written = handoff.unjournaledCompletions()
        #expect(written.map(\.ticket) == [Self.ticket(3)])
        #expect(written.map(\.completion) == [Self.sent])
        #expect(handoff.unjournaledCompletions().isEmpty)
        #expect(
            handoff.take(3, acceptPending: false, into: &batch)
                == .record(end: JournalPosition(logical: 192, sequence: 3), completion: Self.sent, unjournaled: nil))
    }

    @Test("a record pushed out by a later lap hands back its completion if only memory held it")
    func evictionHandsBackTheCompletion() throws {
        var handoff = RecordHandoff(capacity: 2)
        _ = handoff.put(Sample.record(), at: Self.ticket(1), completion: nil)
        _ = handoff.put(Sample.record(), at: Self.ticket(2), completion: Self.sent)
        let held = handoff.complete(Self.ticket(1), Self.sent)
        #expect(held)
        let evicted = handoff.put(Sample.record(), at: Self.ticket(3), completion: nil)
        #expect(evicted?.ticket == Self.ticket(1))
        #expect(evicted?.completion == Self.sent)
        let second = handoff.put(Sample.record(), at: Self.ticket(4), completion: nil)
        #expect(second == nil, "record 2's completion went into the journal with it")
    }
}
