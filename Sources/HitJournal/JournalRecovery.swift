/// What opening a journal found between its reclaimed position and the end of its records: the
/// records an earlier process appended that may not be in the database yet (the writer skips those
/// the database already holds, by sequence), and what was skipped on the way.
public struct JournalRecovery: Sendable, Equatable {
    /// Where the records found end: appends go on from here.
    public var end: UInt64
    /// The sequence of the last record found (or of the reclaimed position when none was).
    public var lastSequence: UInt64
    /// Records found past the reclaimed position.
    public var records: Int
    /// Stretches that held no valid record (a hole a kill left, a torn or corrupt record), skipped.
    public var skippedStretches: Int
    /// Their bytes.
    public var skippedBytes: UInt64

    /// How far past the last valid record a scan looks for another one: holes are records reserved
    /// and never written when the process died, at most one per appending thread.
    static let resyncWindow: UInt64 = 1 << 20

    /// Walks `storage`'s records from `tail`, stepping over holes and damage to the next valid
    /// record within `resyncWindow`.
    static func scan(_ storage: any JournalStorage, ringSize: UInt64, from tail: UInt64, afterSequence: UInt64) -> JournalRecovery {
        var window = JournalWindow(storage: storage, ringSize: ringSize)
        var found = JournalRecovery(end: tail, lastSequence: afterSequence, records: 0, skippedStretches: 0, skippedBytes: 0)
        var position = tail
        let limit = tail + ringSize
        while position < limit {
            let room = window.room(at: position)
            if room < UInt64(JournalLayout.recordHeaderSize) {
                position += room
                continue
            }
            if let (header, _) = window.record(at: position, readAhead: limit - position),
                header.kind == .padding || header.sequence > found.lastSequence
            {
                position += UInt64(header.totalLength)
                found.end = position
                if header.kind == .record {
                    found.lastSequence = header.sequence
                    found.records += 1
                }
                continue
            }
            guard let next = window.nextValid(after: position, before: min(position + resyncWindow, limit)) else { break }
            found.skippedStretches += 1
            found.skippedBytes += next - position
            position = next
        }
        return found
    }
}
