/// Why the storage is no longer the journal at its path.
package enum JournalFileLoss: Equatable, Sendable, CustomStringConvertible {
    /// The open file cannot be looked at (`fstat` failed).
    case unreadable(reason: String)
    /// The file was unlinked while open: writes go on into it, but a crash would lose them.
    case deleted
    /// The file was cut short: the records in the part cut off are gone.
    case truncated(size: UInt64, expected: UInt64)
    /// Another file is at the path (moved there by someone else): it is left alone.
    case displaced

    /// Whether a new journal file is made at the path: only where the file at it is not somebody
    /// else's (deleted, or this journal's own file cut short).
    package var isReplaceable: Bool {
        switch self {
        case .deleted, .truncated: true
        case .unreadable, .displaced: false
        }
    }

    package var description: String {
        switch self {
        case .unreadable(let reason): "cannot stat the open file: \(reason)"
        case .deleted: "the file was deleted while in use"
        case .truncated(let size, let expected): "the file was truncated while in use (\(size) of \(expected) bytes)"
        case .displaced: "another file took its place"
        }
    }
}
