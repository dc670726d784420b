/// Where things are in a journal file, and how a record's header is written and checked.
///
/// The file is a header page, then a ring of records. A record's place is a logical offset that only
/// grows (its byte in the ring is the offset modulo the ring's size), so a record left from an
/// earlier lap is told apart from the one that belongs at its place by the offset in its header.
/// Records are 16-byte aligned and never straddle the ring's end: an appender whose record would
/// not fit fills the rest of the lap with a padding record (or, with under `recordHeaderSize` bytes left,
/// nothing, and readers skip the rest of the lap).
///
/// The header page holds the format, the ring's size, the journal's identity and two slots for the
/// reclaimed position (written alternately, each with its own checksum, so a torn write of one
/// leaves the other).
enum JournalLayout {
    static let magic: UInt64 = 0x4C4E_5255_4F4A_484C  // "LHJOURNL", little-endian
    static let formatVersion: UInt32 = 1
    static let headerPageSize: UInt64 = 4096
    static let alignment = 16
    static let recordHeaderSize = 48
    static let recordMagic: UInt32 = 0x3152_484C  // "LHR1"
    /// Where in a record header its completion word is (`JournalCompletion`), written by `complete`.
    static let completionOffset = 40
    /// The slots of the reclaimed position in the header page.
    static let checkpointSlots: [UInt64] = [64, 128]
    static let checkpointSize = 40

    enum RecordKind: UInt32 {
        case record = 0
        case padding = 1
    }

    static func aligned(_ count: Int) -> Int {
        (count + alignment - 1) & ~(alignment - 1)
    }

    /// A record header's fields (the completion word aside).
    struct RecordHeader: Equatable {
        var totalLength: UInt32
        var logical: UInt64
        var sequence: UInt64
        var payloadLength: UInt32
        var kind: RecordKind
    }

    /// Writes `header` into the first `recordHeaderSize` bytes of `record` (whose payload follows)
    /// with the checksum over the header and the payload, and `completion` (zero for none yet).
    static func seal(_ header: RecordHeader, completion: UInt64, in record: UnsafeMutableRawBufferPointer) {
        record.storeBytes(of: recordMagic.littleEndian, toByteOffset: 0, as: UInt32.self)
        record.storeBytes(of: header.totalLength.littleEndian, toByteOffset: 4, as: UInt32.self)
        record.storeBytes(of: header.logical.littleEndian, toByteOffset: 8, as: UInt64.self)
        record.storeBytes(of: header.sequence.littleEndian, toByteOffset: 16, as: UInt64.self)
        record.storeBytes(of: header.payloadLength.littleEndian, toByteOffset: 24, as: UInt32.self)
        record.storeBytes(of: header.kind.rawValue.littleEndian, toByteOffset: 28, as: UInt32.self)
        record.storeBytes(of: UInt32(0), toByteOffset: 36, as: UInt32.self)
        let checksum = Self.checksum(UnsafeRawBufferPointer(record), payloadLength: Int(header.payloadLength))
        record.storeBytes(of: checksum.littleEndian, toByteOffset: 32, as: UInt32.self)
        record.storeBytes(of: completion.littleEndian, toByteOffset: completionOffset, as: UInt64.self)
    }

    /// The header of the record in `bytes` if it is whole and belongs at `logical`: its magic, its
    /// offset, a length that fits `room` (the bytes to the ring's end) and its checksum all check.
    /// `bytes` must hold the header; it must hold the payload too for the checksum to be checked,
    /// else `nil` with `needed` set to the record's length.
    static func header(in bytes: UnsafeRawBufferPointer, at logical: UInt64, room: UInt64, needed: inout Int) -> RecordHeader? {
        needed = 0
        guard bytes.count >= recordHeaderSize,
            UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)) == recordMagic,
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == logical
        else { return nil }
        let total = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let payload = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
        guard let kind = RecordKind(rawValue: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 28, as: UInt32.self))),
            total >= UInt32(recordHeaderSize), Int(total) % alignment == 0, UInt64(total) <= room,
            Int(payload) + recordHeaderSize <= Int(total)
        else { return nil }
        guard bytes.count >= Int(total) else {
            needed = Int(total)
            return nil
        }
        let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
        guard stored == checksum(bytes, payloadLength: Int(payload)) else { return nil }
        return RecordHeader(
            totalLength: total, logical: logical, sequence: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
            payloadLength: payload, kind: kind)
    }

    /// The record's completion word as stored (zero while none was written).
    static func completionWord(in bytes: UnsafeRawBufferPointer) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: completionOffset, as: UInt64.self))
    }

    /// The checksum of a record: its header's first 32 bytes and its payload.
    private static func checksum(_ record: UnsafeRawBufferPointer, payloadLength: Int) -> UInt32 {
        let head = JournalChecksum.hash(UnsafeRawBufferPointer(rebasing: record[0..<32]))
        let body = UnsafeRawBufferPointer(rebasing: record[recordHeaderSize..<(recordHeaderSize + payloadLength)])
        return JournalChecksum.fold(JournalChecksum.hash(body, seed: head))
    }

    // MARK: The header page

    /// What the header page says.
    struct FileHeader: Equatable {
        var ringSize: UInt64
        var identifier: [UInt8]
        var createdMilliseconds: UInt64
    }

    /// What the header page holds: a journal's header, zeros (a journal whose making was cut short,
    /// or a new file), something else, or a journal of another format.
    enum PageContent: Equatable {
        case journal(FileHeader)
        case zeros
        case foreign
        case otherVersion(UInt32)
    }

    static func encodeFileHeader(_ header: FileHeader, into page: UnsafeMutableRawBufferPointer) {
        page.initializeMemory(as: UInt8.self, repeating: 0)
        page.storeBytes(of: magic.littleEndian, toByteOffset: 0, as: UInt64.self)
        page.storeBytes(of: formatVersion.littleEndian, toByteOffset: 8, as: UInt32.self)
        page.storeBytes(of: UInt32(headerPageSize).littleEndian, toByteOffset: 12, as: UInt32.self)
        page.storeBytes(of: header.ringSize.littleEndian, toByteOffset: 16, as: UInt64.self)
        for (index, byte) in header.identifier.prefix(16).enumerated() { page[24 + index] = byte }
        page.storeBytes(of: header.createdMilliseconds.littleEndian, toByteOffset: 40, as: UInt64.self)
        let checksum = JournalChecksum.fold(JournalChecksum.hash(UnsafeRawBufferPointer(rebasing: page[0..<48])))
        page.storeBytes(of: checksum.littleEndian, toByteOffset: 48, as: UInt32.self)
    }

    static func decodeFileHeader(_ page: UnsafeRawBufferPointer) -> PageContent {
        guard page.count >= 64 else { return .foreign }
        if page.allSatisfy({ $0 == 0 }) { return .zeros }
        guard UInt64(littleEndian: page.loadUnaligned(fromByteOffset: 0, as: UInt64.self)) == magic else { return .foreign }
        let version = UInt32(littleEndian: page.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard version == formatVersion else { return .otherVersion(version) }
        let checksum = JournalChecksum.fold(JournalChecksum.hash(UnsafeRawBufferPointer(rebasing: page[0..<48])))
        guard UInt32(littleEndian: page.loadUnaligned(fromByteOffset: 48, as: UInt32.self)) == checksum else { return .foreign }
        return .journal(
            FileHeader(
                ringSize: UInt64(littleEndian: page.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                identifier: Array(page[24..<40]),
                createdMilliseconds: UInt64(littleEndian: page.loadUnaligned(fromByteOffset: 40, as: UInt64.self))))
    }

    /// The reclaimed position: everything before `logical` is in the database for good; `sequence`
    /// is the last record's sequence there.
    struct Checkpoint: Equatable {
        var generation: UInt64
        var logical: UInt64
        var sequence: UInt64
    }

    static func encodeCheckpoint(_ checkpoint: Checkpoint, into slot: UnsafeMutableRawBufferPointer) {
        slot.storeBytes(of: checkpoint.generation.littleEndian, toByteOffset: 0, as: UInt64.self)
        slot.storeBytes(of: checkpoint.logical.littleEndian, toByteOffset: 8, as: UInt64.self)
        slot.storeBytes(of: checkpoint.sequence.littleEndian, toByteOffset: 16, as: UInt64.self)
        let checksum = JournalChecksum.hash(UnsafeRawBufferPointer(rebasing: slot[0..<24]))
        slot.storeBytes(of: checksum.littleEndian, toByteOffset: 24, as: UInt64.self)
        slot.storeBytes(of: UInt64(0), toByteOffset: 32, as: UInt64.self)
    }

    static func decodeCheckpoint(_ slot: UnsafeRawBufferPointer) -> Checkpoint? {
        let checksum = JournalChecksum.hash(UnsafeRawBufferPointer(rebasing: slot[0..<24]))
        guard UInt64(littleEndian: slot.loadUnaligned(fromByteOffset: 24, as: UInt64.self)) == checksum else { return nil }
        let checkpoint = Checkpoint(
            generation: UInt64(littleEndian: slot.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            logical: UInt64(littleEndian: slot.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            sequence: UInt64(littleEndian: slot.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
        return checkpoint.generation == 0 ? nil : checkpoint
    }
}
