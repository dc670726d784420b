/// The bytes a journal lives in: a file on local disk in the server (`JournalFile`), an array in the
/// tests that walk the journal's logic step by step. Reads and writes are positioned (`pread` and
/// `pwrite`), so any number of threads may write at once to places they reserved.
package protocol JournalStorage: Sendable {
    /// Bytes the storage holds (a file's size when it was opened).
    var size: UInt64 { get }
    /// Bytes it holds now: less than `size` once something truncated the file under us.
    var currentSize: UInt64 { get }
    /// Copies `buffer.count` bytes at `offset` into `buffer`; returns how many were there.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) -> Int
    /// Writes `bytes` at `offset`, all of them or an error, into the file in use.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(JournalError)
    /// Writes `bytes` at `offset` into the file of `generation`: the one in use when the place was
    /// reserved, so an append begun before a replacement lands where the copy will find it.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64, generation: UInt64) throws(JournalError)
    /// Makes what was written survive a power loss (`fdatasync`).
    func sync() throws(JournalError)
    /// Lets another process open the journal (`flock` released): this one writes no more.
    func relinquish()
    /// Why the storage is no longer the journal at its path (deleted, replaced or truncated), or `nil`.
    func loss() -> JournalFileLoss?

    // A replacement, in this order, on one thread: `beginReplacement` makes the new file of
    // generation `next` beside the old one; `use` makes it the one in use; `copy` brings the
    // old file's records over, once no append writes the old one any more; `endReplacement` syncs
    // it and puts it at the path.
    /// Makes the next file, holding `headerPage`, beside the journal.
    func beginReplacement(headerPage: UnsafeRawBufferPointer, generation next: UInt64) throws(JournalError)
    /// Sends reads and unplaced writes to the file of `generation`.
    func use(generation: UInt64)
    /// Copies the bytes at `physical` from the file of generation `old` into the one in use.
    func copy(physical: Range<UInt64>, from old: UInt64) throws(JournalError)
    /// Syncs the new file and puts it at the journal's path.
    func endReplacement() throws(JournalError)
}
