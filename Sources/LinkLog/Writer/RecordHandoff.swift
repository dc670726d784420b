import HitJournal

/// The records this process appended, kept in memory beside their journal copy until the writer
/// takes them, so the writer does not read back and decode what it was handed a moment ago. The
/// journal stays the record of truth: it is read only for what is not here — an earlier process's
/// records, a batch read again after a failed commit, a record whose slot a later one took during
/// a burst, or one the writer reached before its appender put it here. Slots are indexed by
/// sequence number modulo the capacity, so a put and a take are a few dozen instructions and the
/// memory is bounded; guarded by the writer's state lock (`WriterStateLock`). The slots are
/// parallel arrays rather than one of structs, so a record moves in and out without being copied.
///
/// A completion whose record is here stays in memory: a second `pwrite` per request into the
/// journal cost more system time than the whole append. The journal's periodic sync writes the
/// completions of records the writer has not taken yet (`unjournaledCompletions`), so a kill
/// loses at most the outcomes (not the rows) of the records answered within one sync interval
/// that the writer had not committed: those rows are written with their outcome unknown.
struct RecordHandoff {
    /// What `take` found at a sequence.
    enum Taken: Equatable {
        /// The record, appended to the batch, with where it ends in the journal and its completion
        /// (`nil`: its exchange had not ended, and the writer accepted that); `unjournaled` names
        /// a completion the journal does not hold yet, to write if the batch is not committed.
        case record(end: JournalPosition, completion: JournalCompletion?, unjournaled: JournalTicket?)
        /// The record is here but its exchange has not ended.
        case pending
        /// Not here: read it from the journal.
        case absent
    }

    /// The writer's largest batch: under a steady load the records of a batch being committed are
    /// all still here when the writer comes back for them.
    static let defaultCapacity = 4096

    private var records: [LogRecord?]
    /// Where each slot's record starts in the journal, for writing its completion there.
    private var starts: [UInt64]
    /// The journal position after each slot's record (its end, and its own sequence; 0 for none).
    private var ends: [JournalPosition]
    private var completions: [JournalCompletion?]
    /// Whether each slot's completion is in the journal too (`unjournaledCompletions`).
    private var journaled: [Bool]
    private let mask: UInt64
    /// The last sequence the writer has read past: a later put of it or of an earlier one (its
    /// appender was overtaken by a reader of the journal) is not kept, so no slot holds a record
    /// nobody will take.
    private var readThrough: UInt64 = 0

    /// A hand-off of `capacity` slots, rounded up to a power of two.
    init(capacity: Int) {
        var size = 1
        while size < max(1, capacity) { size <<= 1 }
        records = Array(repeating: nil, count: size)
        starts = Array(repeating: 0, count: size)
        ends = Array(repeating: JournalPosition(logical: 0, sequence: 0), count: size)
        completions = Array(repeating: nil, count: size)
        journaled = Array(repeating: true, count: size)
        mask = UInt64(size - 1)
    }

    /// Slots: a record is here at most until as many later ones were put.
    var capacity: Int { records.count }

    /// Keeps the record appended at `ticket`, replacing whatever an earlier lap left in its slot;
    /// returns that record's completion when only this memory held it, for the caller to write
    /// into the journal (where the writer will now read the record).
    mutating func put(
        _ record: consuming LogRecord, at ticket: JournalTicket, completion: JournalCompletion?
    ) -> (ticket: JournalTicket, completion: JournalCompletion)? {
        guard ticket.sequence > readThrough else { return nil }
        let slot = index(ticket.sequence)
        var evicted: (ticket: JournalTicket, completion: JournalCompletion)?
        if !journaled[slot], records[slot] != nil, let held = completions[slot] {
            evicted = (self.ticket(at: slot), held)
        }
        records[slot] = record
        starts[slot] = ticket.logical
        ends[slot] = JournalPosition(logical: ticket.end, sequence: ticket.sequence)
        completions[slot] = completion
        // A completion known at the append went into the journal with the record.
        journaled[slot] = true
        return evicted
    }

    /// The exchange of the record at `ticket` ended; returns whether the record is here, so its
    /// completion need not be written into the journal now (`unjournaledCompletions` does it
    /// later for a record the writer has not taken by then).
    mutating func complete(_ ticket: JournalTicket, _ completion: JournalCompletion) -> Bool {
        let slot = index(ticket.sequence)
        guard ends[slot].sequence == ticket.sequence, records[slot] != nil else { return false }
        completions[slot] = completion
        journaled[slot] = false
        return true
    }

    /// The completions of records still here that are not in the journal yet, each marked as
    /// written: the journal's sync writes them, so a kill costs at most a sync interval's outcomes.
    mutating func unjournaledCompletions() -> [(ticket: JournalTicket, completion: JournalCompletion)] {
        var found: [(ticket: JournalTicket, completion: JournalCompletion)] = []
        for slot in records.indices where !journaled[slot] && records[slot] != nil {
            guard let completion = completions[slot] else { continue }
            journaled[slot] = true
            found.append((ticket(at: slot), completion))
        }
        return found
    }

    /// Whether the record at `sequence` is here with its completion; `nil` when it is not here.
    func hasCompletion(_ sequence: UInt64) -> Bool? {
        let slot = index(sequence)
        guard ends[slot].sequence == sequence, records[slot] != nil else { return nil }
        return completions[slot] != nil
    }

    /// Moves the record at `sequence` out of its slot onto the end of `batch` — only once its
    /// exchange ended, unless `acceptPending` (the writer waited long enough, or is stopping).
    mutating func take(_ sequence: UInt64, acceptPending: Bool, into batch: inout [LogRecord]) -> Taken {
        let slot = index(sequence)
        guard ends[slot].sequence == sequence, records[slot] != nil else { return .absent }
        let completion = completions[slot]
        if completion == nil, !acceptPending { return .pending }
        guard let record = records[slot].take() else { return .absent }
        batch.append(record)
        let unjournaled = completion != nil && !journaled[slot] ? ticket(at: slot) : nil
        return .record(end: ends[slot], completion: completion, unjournaled: unjournaled)
    }

    /// The writer has read the journal up to `sequence` (or, after a rewind, only that far).
    mutating func read(through sequence: UInt64) {
        readThrough = sequence
    }

    /// Where the record in `slot` is in the journal, as its append's ticket said.
    private func ticket(at slot: Int) -> JournalTicket {
        JournalTicket(logical: starts[slot], sequence: ends[slot].sequence, end: ends[slot].logical)
    }

    private func index(_ sequence: UInt64) -> Int {
        Int(truncatingIfNeeded: sequence & mask)
    }
}
