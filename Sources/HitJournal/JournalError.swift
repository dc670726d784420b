/// Why a journal cannot be opened or written. Each says which file and what to do.
public enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be made, opened, sized or locked.
    case cannotOpen(path: String, reason: String)
    /// Another process holds the journal (`flock`): two instances may not share one.
    case inUse(path: String)
    /// The file at the path is not a linkhost journal; it is left as it is.
    case notAJournal(path: String)
    /// The journal was written by a format this build does not read.
    case otherVersion(path: String, found: UInt32, supported: UInt32)
    /// A read or write of the file failed.
    case io(path: String, operation: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open the hit journal \(path): \(reason)"
        case .inUse(let path):
            "the hit journal \(path) is in use by another linkhost process; give each instance its own (log.journal.path)"
        case .notAJournal(let path):
            "\(path) is not a linkhost hit journal; it was left untouched: move it away or set log.journal.path to another file"
        case .otherVersion(let path, let found, let supported):
            "the hit journal \(path) has format \(found), this linkhost reads format \(supported): start the linkhost that wrote it until its journal is written (its health report shows a backlog of 0: `linkhost probe --details`, or the public `/healthz` of an older build), then move the file away"
        case .io(let path, let operation, let reason):
            "the hit journal \(path): \(operation) failed: \(reason)"
        }
    }
}
