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
    /// Writes `bytes` at `offset`, all of them or an error.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(JournalError)
    /// Makes what was written survive a power loss (`fdatasync`).
    func sync() throws(JournalError)
    /// Lets another process open the journal (`flock` released): this one writes no more.
    func relinquish()
    /// Why the storage is no longer the journal at its path (deleted, replaced or truncated), or `nil`.
    func lossCheck() -> String?
}
