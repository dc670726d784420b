import Glibc

/// `fsync` by path, for files written by something that does not sync them (SQLite at
/// `synchronous = OFF`) and for the folder whose entries a `link` or `unlink` changed: a rename
/// survives a power loss only once its folder is synced (fsync(2)).
package enum FileSync {
    /// Syncs the file or folder at `path`; returns why not when it cannot.
    package static func sync(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// The size of the file at `path`, `nil` when there is none.
    package static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}
