import HitJournal
import Synchronization

/// A journal's bytes in memory, for walking the journal's logic step by step: writes can be made to
/// fail (a disk error) or to stop part way (a kill in the middle of a write), and the bytes can be
/// damaged or reopened as a new process would find them.
final class MemoryJournalStorage: JournalStorage {
    private let bytes: Mutex<[UInt8]>
    /// When set, the next write fails (the record becomes a hole).
    let failNextWrite = Atomic<Bool>(false)
    /// When set, the next write stores only this many bytes and then "the process dies" (it returns
    /// normally: what matters is what the next open finds).
    let tearNextWriteAt = Atomic<Int>(-1)
    let syncs = Atomic<Int>(0)

    init(size: Int) {
        bytes = Mutex([UInt8](repeating: 0, count: size))
    }

    /// Another storage holding the same bytes: what a restarted process opens.
    func reopened() -> MemoryJournalStorage {
        let copy = MemoryJournalStorage(size: 0)
        copy.bytes.withLock { $0 = self.bytes.withLock { $0 } }
        return copy
    }

    var size: UInt64 { UInt64(bytes.withLock { $0.count }) }
    /// What `truncate` left, as a file's size would say after `ftruncate`.
    let truncatedTo = Atomic<Int>(-1)
    var currentSize: UInt64 {
        let cut = truncatedTo.load(ordering: .relaxed)
        return cut >= 0 ? UInt64(cut) : size
    }

    /// Cuts the bytes from `offset` on to zeros and reports the smaller size (a file truncated
    /// under the server, whose later writes would extend it again as a sparse file).
    func truncate(at offset: Int) {
        bytes.withLock { stored in
            for index in offset..<stored.count { stored[index] = 0 }
        }
        truncatedTo.store(offset, ordering: .relaxed)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) -> Int {
        bytes.withLock { stored in
            let start = Int(offset)
            guard start < stored.count else { return 0 }
            let count = min(buffer.count, stored.count - start)
            stored.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: count) }
            return count
        }
    }

    func write(_ data: UnsafeRawBufferPointer, at offset: UInt64) throws(JournalError) {
        if failNextWrite.exchange(false, ordering: .relaxed) { throw .io(path: "memory", operation: "writing", reason: "injected") }
        let tear = tearNextWriteAt.exchange(-1, ordering: .relaxed)
        let count = tear >= 0 ? min(tear, data.count) : data.count
        bytes.withLock { stored in
            for index in 0..<count { stored[Int(offset) + index] = data[index] }
        }
    }

    func write(_ data: UnsafeRawBufferPointer, at offset: UInt64, generation: UInt64) throws(JournalError) {
        try write(data, at: offset)
    }

    func sync() throws(JournalError) {
        syncs.add(1, ordering: .relaxed)
    }

    func relinquish() {}

    func loss() -> JournalFileLoss? { nil }

    // Bytes in memory are never lost: replacing a lost file is tested on real files.
    func beginReplacement(headerPage: UnsafeRawBufferPointer, generation next: UInt64) throws(JournalError) {
        throw .cannotOpen(path: "memory", reason: "bytes in memory are not replaced")
    }

    func use(generation: UInt64) {}

    func copy(physical: Range<UInt64>, from old: UInt64) throws(JournalError) {}

    func endReplacement() throws(JournalError) {}

    /// Puts `data` at `offset` as something other than the journal wrote it (another program's file).
    func poke(_ data: [UInt8], at offset: Int) {
        bytes.withLock { stored in
            for (index, byte) in data.enumerated() { stored[offset + index] = byte }
        }
    }

    /// Flips a byte (corruption on disk).
    func damage(at offset: UInt64) {
        bytes.withLock { $0[Int(offset)] ^= 0x5A }
    }
}
