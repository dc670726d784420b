import Glibc

/// A backup of a log, made while its writer goes on writing (`linkhost backup`): a copy of the
/// database as of one moment and of the key its secret tokens were hashed with, without which a
/// restored log would hash new app opens' codes differently and pair none with its views.
///
/// Both files are written under temporary names, synced, then linked to their own names, the key
/// first and the database last: a folder that holds the database holds a whole backup, and a
/// backup killed half-way leaves hidden `.…partial` files (and at most the key under its name). A
/// file already at either name is never replaced (`link` fails where `rename` would overwrite).
public struct LogBackup: Sendable {
    /// The database's copy.
    public let databasePath: String
    /// The key's copy; `nil` when the log has no key file (it never hashed a secret).
    public let keyPath: String?
    /// What the database's copy holds, and what making it cost the live database.
    public let snapshot: LogSnapshot
    /// How long the whole backup took.
    public let duration: Duration

    /// Writes a backup of `source` into `folder` (made when missing): the database under its own
    /// file name and its key beside it (`SecretHasher.keyFilePath`). `whileHeld` runs on the
    /// connection that reads the copy's moment (`LogSnapshotSource.copySnapshot`).
    public static func write(
        from source: any LogSnapshotSource, into folder: String, whileHeld: (any LogSQLConnection) throws -> Void = { _ in }
    ) throws -> LogBackup {
        let started = ContinuousClock.now
        try FolderCreator.createFolder(folder)
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let databasePath = base + source.fileName
        let keyPath = SecretHasher.keyFilePath(forDatabase: databasePath)
        for path in [databasePath, keyPath] where FileSync.size(path) != nil { throw LogError.backupInTheWay(path: path) }
        let key = try SecretKeyFile.readKey(at: source.secretKeyFilePath)
        let partialDatabase = base + ".\(source.fileName).\(getpid()).partial"
        let partialKey = base + ".\(source.fileName).key.\(getpid()).partial"
        // What SQLite may leave beside a copy it was writing when it failed, too.
        defer { for path in [partialKey, partialDatabase, partialDatabase + "-journal", partialDatabase + "-wal", partialDatabase + "-shm"] { unlink(path) } }
        // Made empty first (SQLite takes an empty file for a new database): a folder that cannot
        // be written is named before any work is done.
        let descriptor = open(partialDatabase, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LogError.backupNotWritten(path: databasePath, reason: String(cString: strerror(errno))) }
        close(descriptor)
        if let key, let failure = SecretKeyFile.writeNew(key, at: partialKey) { throw LogError.backupNotWritten(path: keyPath, reason: failure) }
        let snapshot = try source.copySnapshot(to: partialDatabase, whileHeld: whileHeld)
        if key != nil { try place(partialKey, at: keyPath) }
        do {
            try place(partialDatabase, at: databasePath)
        } catch {
            if key != nil { unlink(keyPath) }
            throw error
        }
        if let failure = FileSync.sync(folder) { throw LogError.backupNotWritten(path: folder, reason: "cannot sync the folder: \(failure)") }
        return LogBackup(databasePath: databasePath, keyPath: key != nil ? keyPath : nil, snapshot: snapshot, duration: started.duration(to: .now))
    }

    /// Gives the synced file at `partial` its name `path`, unless a file has that name already.
    private static func place(_ partial: String, at path: String) throws {
        guard link(partial, path) == 0 else {
            let failure = errno
            if failure == EEXIST { throw LogError.backupInTheWay(path: path) }
            throw LogError.backupNotWritten(path: path, reason: String(cString: strerror(failure)))
        }
    }
}
