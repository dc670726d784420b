/// A stretch of the ring read into memory, for the reader and the recovery scan: loads a chunk at
/// a time (records never straddle the ring's end, so a chunk is one positioned read) and checks
/// records in place.
struct JournalWindow: ~Copyable {
    private let storage: any JournalStorage
    private let ringSize: UInt64
    private let chunk: Int
    private var buffer: UnsafeMutableRawBufferPointer
    /// The logical offset of the buffer's first byte, and how many bytes it holds.
    private var start: UInt64 = 0
    private var count = 0

    init(storage: any JournalStorage, ringSize: UInt64, chunk: Int = 1 << 20) {
        self.storage = storage
        self.ringSize = ringSize
        self.chunk = chunk
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: JournalLayout.alignment)
    }

    deinit {
        buffer.deallocate()
    }

    /// Forgets what was read, so the next look reads the file again (records are still being written).
    mutating func invalidate() {
        count = 0
    }

    /// Bytes to the ring's end from `logical`.
    func room(at logical: UInt64) -> UInt64 {
        ringSize - logical % ringSize
    }

    /// `length` bytes at `logical` (which must not cross the ring's end), reading from the file when
    /// they are not in the buffer; at most `limit` bytes are read ahead. `nil` if the file is short.
    mutating func bytes(at logical: UInt64, length: Int, readAhead limit: UInt64) -> UnsafeRawBufferPointer? {
        if logical >= start, logical + UInt64(length) <= start + UInt64(count) {
            let offset = Int(logical - start)
            return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)])
        }
        let wanted = Int(min(max(UInt64(length), min(UInt64(chunk), limit)), room(at: logical)))
        guard wanted >= length else { return nil }
        if wanted > buffer.count {
            buffer.deallocate()
            buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: wanted, alignment: JournalLayout.alignment)
        }
        let got = storage.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), at: JournalLayout.headerPageSize + logical % ringSize)
        start = logical
        count = got
        guard got >= length else { return nil }
        return UnsafeRawBufferPointer(rebasing: buffer[0..<length])
    }

    /// The whole record at `logical` if it is valid there (see `JournalLayout.header`), with its bytes.
    mutating func record(at logical: UInt64, readAhead limit: UInt64) -> (JournalLayout.RecordHeader, UnsafeRawBufferPointer)? {
        let room = room(at: logical)
        guard room >= UInt64(JournalLayout.recordHeaderSize),
            let head = bytes(at: logical, length: JournalLayout.recordHeaderSize, readAhead: limit)
        else { return nil }
        var needed = 0
        if let header = JournalLayout.header(in: head, at: logical, room: room, needed: &needed) { return (header, head) }
        guard needed > 0, let whole = bytes(at: logical, length: needed, readAhead: limit) else { return nil }
        guard let header = JournalLayout.header(in: whole, at: logical, room: room, needed: &needed) else { return nil }
        return (header, whole)
    }

    /// The first place after `logical` and before `limit` where a valid record starts, looking at
    /// every aligned offset: how a reader steps over a hole or corrupt bytes.
    mutating func nextValid(after logical: UInt64, before limit: UInt64) -> UInt64? {
        var candidate = logical + UInt64(JournalLayout.alignment)
        while candidate < limit {
            let room = room(at: candidate)
            if room < UInt64(JournalLayout.recordHeaderSize) {
                candidate += room
                continue
            }
            if let head = bytes(at: candidate, length: JournalLayout.recordHeaderSize, readAhead: limit - candidate),
                UInt32(littleEndian: head.loadUnaligned(fromByteOffset: 0, as: UInt32.self)) == JournalLayout.recordMagic,
                record(at: candidate, readAhead: limit - candidate) != nil
            {
                return candidate
            }
            candidate += UInt64(JournalLayout.alignment)
        }
        return nil
    }
}
