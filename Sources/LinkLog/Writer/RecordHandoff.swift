import HitJournal

/// The records this process appended, kept in memory beside their journal copy until the writer
/// takes them, so the writer does not read back and decode what it was handed a moment ago. The
/// journal stays the record of truth: it is read only for what is not here — an earlier process's
/// records, a batch read again after a failed commit, a record whose slot a later one took during
/// a burst, or one the writer reached before its appender put it here. Slots are indexed by
/// sequence number modulo the capacity, so a put and a take are a few dozen instructions and the
/// memory is bounded; guarded by the writer's state lock (`WriterStateLock`). The slots are three
/// arrays rather than one of structs, so a record moves in and out without being copied.
struct RecordHandoff {
    /// What `take` found at a sequence.
    enum Taken: Equatable {
        /// The record, appended to the batch, with where it ends in the journal and its completion
        /// (`nil`: its exchange had not ended, and the writer accepted that).
        case record(end: JournalPosition, completion: JournalCompletion?)
        /// The record is here but its exchange has not ended.
        case pending
        /// Not here: read it from the journal.
        case absent
    }

    /// The writer's largest batch: under a steady load the records of a batch being committed are
    /// all still here when the writer comes back for them.
    static let defaultCapacity = 4096

    private var records: [LogRecord?]
    /// The journal position after each slot's record (its end, and its own sequence; 0 for none).
    private var ends: [JournalPosition]
    private var completions: [JournalCompletion?]
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
        ends = Array(repeating: JournalPosition(logical: 0, sequence: 0), count: size)
        completions = Array(repeating: nil, count: size)
        mask = UInt64(size - 1)
    }

    /// Keeps the record appended at `ticket`, replacing whatever an earlier lap left in its slot.
    mutating func put(_ record: consuming LogRecord, at ticket: JournalTicket, completion: JournalCompletion?) {
        guard ticket.sequence > readThrough else { return }
        let slot = index(ticket.sequence)
        records[slot] = record
        ends[slot] = JournalPosition(logical: ticket.end, sequence: ticket.sequence)
        completions[slot] = completion
    }

    /// The exchange of the record at `ticket` ended.
    mutating func complete(_ ticket: JournalTicket, _ completion: JournalCompletion) {
        let slot = index(ticket.sequence)
        guard ends[slot].sequence == ticket.sequence, records[slot] != nil else { return }
        completions[slot] = completion
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
        return .record(end: ends[slot], completion: completion)
    }

    /// The writer has read the journal up to `sequence` (or, after a rewind, only that far).
    mutating func read(through sequence: UInt64) {
        readThrough = sequence
    }

    private func index(_ sequence: UInt64) -> Int {
        Int(truncatingIfNeeded: sequence & mask)
    }
}
