import Glibc

/// A journal's file on local disk, written with `pwrite` at offsets its writers reserved: bytes
/// written that way are in the page cache the moment the call returns and outlive the process that
/// wrote them, killed or not, with no `fdatasync`. Not a shared mapping: a mapped file that is
/// truncated, or that is sparse on a full file system, kills the process with SIGBUS.
package final class JournalFile: JournalStorage {
    package let path: String
    private let descriptor: Int32
    private let identity: (device: UInt64, inode: UInt64)
    package let size: UInt64
    /// Whether the file system could not reserve the file's blocks (`fallocate`), so zeros were
    /// written instead; copy-on-write file systems accept either and still allocate on write.
    package let preallocatedByWriting: Bool

    /// Opens the journal at `path`, making it `size` bytes long and reserving its blocks when it is
    /// new (or empty), and takes its lock: one process per journal.
    package init(path: String, size newSize: UInt64) throws(JournalError) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: Self.lastError()) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = Self.lastError()
            close(descriptor)
            throw busy ? .inUse(path: path) : .cannotOpen(path: path, reason: "locking it: \(reason)")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = Self.lastError()
            close(descriptor)
            throw .cannotOpen(path: path, reason: reason)
        }
        var byWriting = false
        if info.st_size == 0 {
            // New: reserve every block now, so a disk that fills later cannot take the journal's room.
            let result = Self.fallocate.map { $0(descriptor, 0, 0, off_t(newSize)) } ?? -1
            if result != 0 {
                let code = Self.fallocate == nil ? ENOSYS : errno
                guard code == EOPNOTSUPP || code == ENOSYS else {
                    ftruncate(descriptor, 0)
                    close(descriptor)
                    throw .cannotOpen(path: path, reason: "reserving \(newSize) bytes: \(String(cString: strerror(code)))")
                }
                byWriting = true
                if let problem = Self.writeZeros(descriptor, count: newSize) {
                    ftruncate(descriptor, 0)
                    close(descriptor)
                    throw .cannotOpen(path: path, reason: "writing \(newSize) bytes of zeros: \(problem)")
                }
            }
            fstat(descriptor, &info)
        }
        // No readahead: the writer reads just behind the appenders, and readahead past what is
        // written filled the page cache with large folios ahead of them, into which every small
        // `pwrite` then paid for the whole folio's buffers (ext4 on Linux 6.18: a third of the
        // server's processor time in `ext4_block_write_begin` and `block_commit_write`).
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_RANDOM)
        self.descriptor = descriptor
        size = UInt64(max(info.st_size, 0))
        identity = (UInt64(info.st_dev), UInt64(info.st_ino))
        preallocatedByWriting = byWriting
    }

    deinit {
        close(descriptor)
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        return done
    }

    package func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(JournalError) {
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw .io(path: path, operation: "writing", reason: count < 0 ? Self.lastError() : "nothing written") }
            done += count
        }
    }

    package func sync() throws(JournalError) {
        guard fdatasync(descriptor) == 0 else { throw .io(path: path, operation: "fdatasync", reason: Self.lastError()) }
    }

    package var currentSize: UInt64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? UInt64(max(info.st_size, 0)) : 0
    }

    package func relinquish() {
        flock(descriptor, LOCK_UN)
    }

    package func lossCheck() -> String? {
        var open = stat()
        guard fstat(descriptor, &open) == 0 else { return "cannot stat the open file: \(Self.lastError())" }
        if open.st_nlink == 0 { return "the file was deleted while in use" }
        if UInt64(max(open.st_size, 0)) < size { return "the file was truncated while in use (\(open.st_size) of \(size) bytes)" }
        var named = stat()
        if stat(path, &named) != 0 || UInt64(named.st_dev) != identity.device || UInt64(named.st_ino) != identity.inode {
            return "another file took its place"
        }
        return nil
    }

    /// glibc's `fallocate`, looked up at run time: Swift's Glibc module leaves out the GNU
    /// declarations, and `posix_fallocate` would write zeros on its own where the file system
    /// cannot reserve, without saying so.
    private static let fallocate: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
    }()

    private static func writeZeros(_ descriptor: Int32, count: UInt64) -> String? {
        let chunk = 1 << 20
        let zeros = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { zeros.deallocate() }
        zeros.initializeMemory(as: UInt8.self, repeating: 0)
        var offset: UInt64 = 0
        while offset < count {
            let length = Int(min(UInt64(chunk), count - offset))
            let written = pwrite(descriptor, zeros.baseAddress, length, off_t(offset))
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? lastError() : "nothing written" }
            offset += UInt64(written)
        }
        return nil
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}
