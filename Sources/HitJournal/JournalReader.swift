/// The log writer's view of the journal: reads records in order from a position, on one thread.
///
/// Below the end that opening found (`JournalRecovery.end`), or that a replacement of a lost file
/// copied (`HitJournal.replaceIfLost`), no appender is left, so a record that
/// does not check is a hole or damage, stepped over, and one without a completion had its exchange
/// cut off by the end of its process. Past it, records are being written as they are read: a
/// reserved place that does not check yet is an append still under way, and a record without its
/// completion an exchange still going, and the reader stops there until the next call.
public struct JournalReader: ~Copyable {
    private let journal: HitJournal
    private var window: JournalWindow
    /// The next record to read, and the sequence of the last one read.
    public private(set) var position: JournalPosition
    /// Stretches stepped over since the reader was made (holes and damage), and their bytes.
    public private(set) var skippedStretches = 0
    public private(set) var skippedBytes: UInt64 = 0

    /// Why a read stopped.
    public enum Stop: Equatable, Sendable {
        /// Every record reserved so far was read.
        case caughtUp
        /// The limit of records or bytes was reached.
        case limit
        /// The next record is still being written.
        case appendUnderWay
        /// The next record's exchange has not ended yet; it was appended at `sequence`.
        case completionPending(sequence: UInt64)
    }

    /// One record read: its sequence, its bytes (valid only during the call that delivers them), its
    /// completion — `nil` when its process ended before the exchange did (`recovered` then holds).
    public struct Entry {
        public let sequence: UInt64
        /// Valid only during the call that delivers it.
        public let payload: UnsafeRawBufferPointer
        public let completion: JournalCompletion?
    }

    /// A reader from the journal's reclaimed position.
    public init(_ journal: HitJournal) {
        self.journal = journal
        window = JournalWindow(storage: journal.storage, ringSize: journal.ringSize)
        position = journal.start
    }

    /// Reads again from `position` (after a batch was not committed, to read it once more).
    public mutating func rewind(to position: JournalPosition) {
        self.position = position
        window.invalidate()
    }

    /// Moves past records the caller took from elsewhere (the writer's in-memory hand-off):
    /// `position` must be the end of a record this reader would have reached.
    public mutating func advance(to position: JournalPosition) {
        self.position = position
    }

    /// Delivers records from the position on, up to `maximumRecords` and about `maximumBytes`, and
    /// moves past each one delivered. `acceptPendingBefore`: records appended before this sequence
    /// whose completion has not come are delivered without one (the writer waited long enough).
    public mutating func read(
        maximumRecords: Int, maximumBytes: Int, acceptPendingBefore: UInt64 = 0, _ deliver: (Entry) -> Void
    ) -> Stop {
        window.invalidate()
        let recoveredEnd = journal.settledEnd
        let head = journal.head
        var records = 0
        var bytes = 0
        while true {
            let at = position.logical
            guard at < head else { return .caughtUp }
            guard records < maximumRecords, bytes < maximumBytes else { return .limit }
            let room = window.room(at: at)
            if room < UInt64(JournalLayout.recordHeaderSize) {
                position.logical += room
                continue
            }
            let live = at >= recoveredEnd
            var found = window.record(at: at, readAhead: head - at)
            if found == nil, live {
                // Read ahead before this record's write ended: read it once more by itself.
                window.invalidate()
                found = window.record(at: at, readAhead: head - at)
            }
            guard let (header, record) = found else {
                if let length = journal.hole(at: at) {
                    skip(to: at + length)
                    continue
                }
                // A file cut short under us (truncated while in use) lost the records in that
                // stretch: stepped over like damage, to the next valid record before the head.
                if live, journal.storage.currentSize >= journal.storage.size { return .appendUnderWay }
                let limit = live ? head : recoveredEnd
                let next = window.nextValid(after: at, before: limit) ?? limit
                skip(to: next)
                continue
            }
            if header.kind == .padding {
                position.logical += UInt64(header.totalLength)
                continue
            }
            let completion = JournalCompletion(word: JournalLayout.completionWord(in: record), sequence: header.sequence)
            if completion == nil, live, header.sequence >= acceptPendingBefore {
                // The completion may have been written after this chunk was read.
                window.invalidate()
                guard let again = window.record(at: at, readAhead: UInt64(header.totalLength)),
                    let late = JournalCompletion(word: JournalLayout.completionWord(in: again.1), sequence: header.sequence)
                else { return .completionPending(sequence: header.sequence) }
                deliverRecord(header, again.1, late, deliver)
            } else {
                deliverRecord(header, record, completion, deliver)
            }
            records += 1
            bytes += Int(header.totalLength)
        }
    }

    private mutating func deliverRecord(
        _ header: JournalLayout.RecordHeader, _ record: UnsafeRawBufferPointer, _ completion: JournalCompletion?,
        _ deliver: (Entry) -> Void
    ) {
        let payload = UnsafeRawBufferPointer(
            rebasing: record[JournalLayout.recordHeaderSize..<(JournalLayout.recordHeaderSize + Int(header.payloadLength))])
        deliver(Entry(sequence: header.sequence, payload: payload, completion: completion))
        position = JournalPosition(logical: header.logical + UInt64(header.totalLength), sequence: header.sequence)
    }

    private mutating func skip(to next: UInt64) {
        skippedStretches += 1
        skippedBytes += next - position.logical
        position.logical = next
    }
}
