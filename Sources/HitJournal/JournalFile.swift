import Glibc
import Synchronization

/// A journal's file on local disk, written with `pwrite` at offsets its writers reserved: bytes
/// written that way are in the page cache the moment the call returns and outlive the process that
/// wrote them, killed or not, with no `fdatasync`. Not a shared mapping: a mapped file that is
/// truncated, or that is sparse on a full file system, kills the process with SIGBUS.
///
/// A file deleted or truncated under the server is made anew (`beginReplacement` … `endReplacement`):
/// the new file belongs to the next file generation, and each write goes to the file of the
/// generation its place was reserved in, so the two files are written side by side for as long as
/// appends begun on the old one take.
package final class JournalFile: JournalStorage {
    package let path: String
    /// The descriptors of the even and the odd file generations.
    private let evenDescriptor: Atomic<Int32>
    private let oddDescriptor = Atomic<Int32>(-1)
    /// The generation reads and unplaced writes go to.
    private let generation = Atomic<UInt64>(0)
    private let files: Mutex<Files>
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
        evenDescriptor = Atomic(descriptor)
        size = UInt64(max(info.st_size, 0))
        files = Mutex(Files(identity: Identity(info)))
        preallocatedByWriting = byWriting
    }

    deinit {
        for descriptor in [evenDescriptor.load(ordering: .relaxed), oddDescriptor.load(ordering: .relaxed)] + files.withLock({ $0.retired })
        where descriptor >= 0 {
            close(descriptor)
        }
    }

    /// What tells one file from another: its device and inode.
    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The file at the path, a replacement being made, and descriptors of lost files kept open.
    private struct Files {
        var identity: Identity
        var replacement: (descriptor: Int32, identity: Identity)?
        /// Descriptors of files that were replaced: never closed while the journal is open, so a read
        /// or write still under way on another thread never meets a closed or reused descriptor
        /// (replacements are rare faults; each keeps its lost file's space until the journal closes).
        var retired: [Int32] = []
    }

    private var descriptor: Int32 {
        descriptor(of: generation.load(ordering: .acquiring))
    }

    private func descriptor(of generation: UInt64) -> Int32 {
        generation & 1 == 0 ? evenDescriptor.load(ordering: .acquiring) : oddDescriptor.load(ordering: .acquiring)
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
        try write(bytes, at: offset, into: descriptor)
    }

    package func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64, generation: UInt64) throws(JournalError) {
        try write(bytes, at: offset, into: descriptor(of: generation))
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64, into descriptor: Int32) throws(JournalError) {
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

    package func loss() -> JournalFileLoss? {
        var open = stat()
        guard fstat(descriptor, &open) == 0 else { return .unreadable(reason: Self.lastError()) }
        if open.st_nlink == 0 { return .deleted }
        if UInt64(max(open.st_size, 0)) < size { return .truncated(size: UInt64(max(open.st_size, 0)), expected: size) }
        var named = stat()
        if stat(path, &named) != 0 || Identity(named) != files.withLock({ $0.identity }) { return .displaced }
        return nil
    }

    package func beginReplacement(headerPage: UnsafeRawBufferPointer, generation next: UInt64) throws(JournalError) {
        let newPath = path + ".new"
        // A leftover of a replacement that failed part way is this process's own file: made again.
        unlink(newPath)
        let created = open(newPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard created >= 0 else { throw .cannotOpen(path: newPath, reason: Self.lastError()) }
        var failure: String?
        if flock(created, LOCK_EX | LOCK_NB) != 0 {
            failure = "locking it: \(Self.lastError())"
        } else if let fallocate = Self.fallocate, fallocate(created, 0, 0, off_t(size)) != 0, errno != EOPNOTSUPP, errno != ENOSYS {
            failure = "reserving \(size) bytes: \(Self.lastError())"
        } else if let problem = Self.writeZerosIfShort(created, count: size) {
            failure = "writing \(size) bytes of zeros: \(problem)"
        } else {
            do {
                try write(headerPage, at: 0, into: created)
            } catch {
                failure = error.description
            }
        }
        var info = stat()
        if failure == nil, fstat(created, &info) != 0 { failure = Self.lastError() }
        if let failure {
            close(created)
            unlink(newPath)
            throw .cannotOpen(path: newPath, reason: failure)
        }
        _ = posix_fadvise(created, 0, 0, POSIX_FADV_RANDOM)
        files.withLock { files in
            // The slot's descriptor belongs to two generations back: nothing writes it any more.
            let old =
                next & 1 == 0
                ? evenDescriptor.exchange(created, ordering: .acquiringAndReleasing)
                : oddDescriptor.exchange(created, ordering: .acquiringAndReleasing)
            if old >= 0 { files.retired.append(old) }
            files.replacement = (created, Identity(info))
        }
    }

    package func use(generation next: UInt64) {
        generation.store(next, ordering: .releasing)
    }

    package func copy(physical range: Range<UInt64>, from old: UInt64) throws(JournalError) {
        let source = descriptor(of: old)
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let length = Int(min(UInt64(chunk), range.upperBound - offset))
            let got = pread(source, buffer.baseAddress, length, off_t(offset))
            if got < 0, errno == EINTR { continue }
            // Past the end of a truncated file: nothing to copy, the new file holds zeros there.
            guard got > 0 else { return }
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<got]), at: offset, into: descriptor)
            offset += UInt64(got)
        }
    }

    package func endReplacement() throws(JournalError) {
        guard let made = files.withLock({ $0.replacement }) else { return }
        guard fdatasync(made.descriptor) == 0 else { throw .io(path: path + ".new", operation: "fdatasync", reason: Self.lastError()) }
        // Only a file that is still this journal's (deleted, or the truncated one) gives way; one
        // that another program put at the path meanwhile is left, and the new file with it.
        var named = stat()
        let ours = files.withLock { $0.identity }
        if stat(path, &named) == 0, Identity(named) != ours {
            throw .cannotOpen(path: path, reason: "another file took its place while a new journal was made; the new one is at \(path).new")
        }
        guard rename(path + ".new", path) == 0 else { throw .io(path: path, operation: "renaming the new journal into place", reason: Self.lastError()) }
        files.withLock { files in
            files.identity = made.identity
            files.replacement = nil
        }
    }

    /// glibc's `fallocate`, looked up at run time: Swift's Glibc module leaves out the GNU
    /// declarations, and `posix_fallocate` would write zeros on its own where the file system
    /// cannot reserve, without saying so.
    private static let fallocate: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
    }()

    /// Writes zeros over the file where it is shorter than `count` (`fallocate` reserved nothing).
    private static func writeZerosIfShort(_ descriptor: Int32, count: UInt64) -> String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return lastError() }
        return UInt64(max(info.st_size, 0)) >= count ? nil : writeZeros(descriptor, count: count)
    }

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
