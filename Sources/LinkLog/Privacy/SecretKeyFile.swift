import Glibc

/// The per-installation key file of `SecretHasher`: read it if it exists, otherwise create it so that
/// no process can ever see it half-written or with looser permissions.
enum SecretKeyFile {
    static func loadOrCreate(at path: String) throws -> [UInt8] {
        if let key = try readKey(at: path) { return key }
        try FolderCreator.createParent(of: path)
        return try createKey(at: path)
    }

    /// The key, or `nil` when there is no file yet.
    package static func readKey(at path: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ENOENT { return nil }
            throw LogError.keyFileUnreadable(path: path, reason: String(cString: strerror(failure)))
        }
        defer { close(descriptor) }
        // Read one byte more than a key so an oversized file is noticed.
        var buffer = [UInt8](repeating: 0, count: SecretHasher.keyLength + 1)
        var total = 0
        while total < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LogError.keyFileUnreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            total += count
        }
        guard total == SecretHasher.keyLength else {
            var info = stat()
            let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : total
            throw LogError.keyFileWrongSize(path: path, size: size)
        }
        return Array(buffer.prefix(total))
    }

    /// Writes a new key to a private temporary file, then links it into place: `link` fails if another
    /// process got there first, in which case its key is the one to use.
    private static func createKey(at path: String) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var key: [UInt8] = []
        key.reserveCapacity(SecretHasher.keyLength)
        for _ in 0..<(SecretHasher.keyLength / 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { key.append(contentsOf: $0) }
        }

        let temporaryPath = "\(path).\(getpid()).\(generator.next() as UInt32).tmp"
        defer { unlink(temporaryPath) }
        if let failure = writeNew(key, at: temporaryPath) { throw LogError.keyFileNotCreated(path: path, reason: failure) }
        guard link(temporaryPath, path) == 0 else {
            let failure = errno
            if failure == EEXIST, let existing = try readKey(at: path) { return existing }
            throw LogError.keyFileNotCreated(path: path, reason: String(cString: strerror(failure)))
        }
        return key
    }

    /// Writes `key` into a new file at `path` (never one that exists), mode 0600, synced to disk;
    /// returns why not when it cannot.
    package static func writeNew(_ key: [UInt8], at path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        let failure = errno
        close(descriptor)
        guard written == key.count, synced == 0 else { return written < 0 || synced != 0 ? String(cString: strerror(failure)) : "a short write" }
        return nil
    }
}
