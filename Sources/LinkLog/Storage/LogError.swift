/// Failures of the hit log other than SQLite's own: a database that is missing or too new, a folder
/// that cannot be made, a secret key file that is wrong. Each says what to do about it.
public enum LogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No log database at the path (the reader never creates one).
    case databaseMissing(path: String)
    /// The database was written by a newer linkhost whose schema this build does not know.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// The folder for the database or key file could not be made.
    case cannotCreateFolder(path: String, reason: String)
    /// The secret key file exists but cannot be read.
    case keyFileUnreadable(path: String, reason: String)
    /// The secret key file does not hold exactly 32 bytes.
    case keyFileWrongSize(path: String, size: Int)
    /// A new secret key file could not be written.
    case keyFileNotCreated(path: String, reason: String)
    /// The writer thread could not be started.
    case writerThreadNotStarted(reason: String)
    /// A backup would go where a file is already: a backup never replaces one.
    case backupInTheWay(path: String)
    /// A backup's file could not be written, synced or named.
    case backupNotWritten(path: String, reason: String)

    public var description: String {
        switch self {
        case .databaseMissing(let path):
            "no hit log database at \(path) (it is created when the server first logs a request)"
        case .schemaTooNew(let path, let found, let supported):
            "the hit log \(path) has schema version \(found), newer than this linkhost knows (\(supported)); use a newer linkhost"
        case .cannotCreateFolder(let path, let reason):
            "cannot create the folder \(path): \(reason)"
        case .keyFileUnreadable(let path, let reason):
            "cannot read the log's secret key file \(path): \(reason)"
        case .keyFileWrongSize(let path, let size):
            "the log's secret key file \(path) holds \(size) bytes, not 32; restore it from a backup, or delete it to make a new key (hashed codes logged before will then no longer match new ones)"
        case .keyFileNotCreated(let path, let reason):
            "cannot create the log's secret key file \(path): \(reason)"
        case .writerThreadNotStarted(let reason):
            "cannot start the log writer thread: \(reason)"
        case .backupInTheWay(let path):
            "\(path) is there already: a backup never replaces one; give a new folder (a dated one, say)"
        case .backupNotWritten(let path, let reason):
            "cannot write the backup \(path): \(reason)"
        }
    }
}
