internal import CSQLite
import Glibc

/// A failed SQLite call: the kind of failure, SQLite's own words, and what we were doing at the time,
/// so an operator reading the log writer's status knows what to fix.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, from SQLite's primary result code, so callers can tell "busy" from
    /// "disk full" without knowing SQLite's numbers.
    public enum Reason: String, Sendable, Equatable {
        case busy
        case locked
        case readOnly = "read-only"
        case diskFull = "disk full"
        case cannotOpen = "cannot open"
        case ioError = "I/O error"
        case corrupt
        case notADatabase = "not a database"
        case permissionDenied = "permission denied"
        case constraint
        case misuse
        case tooBig = "too big"
        case schemaChanged = "schema changed"
        case interrupted
        case other
    }

    /// The kind of failure.
    public let reason: Reason
    /// SQLite's extended result code.
    public let code: Int32
    /// SQLite's message, with the operating system's reason appended when SQLite has one.
    public let message: String
    /// What the program was doing, such as "opening /data/log.sqlite".
    public let context: String?

    /// Makes an error from a result code and a message.
    public init(code: Int32, message: String, context: String? = nil) {
        self.reason = Self.reason(for: code)
        self.code = code
        self.message = message
        self.context = context
    }

    /// Makes an error from a result code, reading the message (and errno, for I/O and open failures)
    /// from the connection that failed.
    init(code: Int32, connection: OpaquePointer?, context: String? = nil) {
        var message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        // SQLite's "unable to open database file" says nothing about why; errno does.
        let primary = code & 0xFF
        if let connection, primary == SQLITE_CANTOPEN || primary == SQLITE_IOERR || primary == SQLITE_FULL {
            let systemError = sqlite3_system_errno(connection)
            if systemError != 0 { message += " (\(String(cString: strerror(systemError))))" }
        }
        self.init(code: code, message: message, context: context)
    }

    public var description: String {
        let text = "\(message) [\(reason.rawValue), code \(code)]"
        return context.map { "\($0): \(text)" } ?? text
    }

    private static func reason(for code: Int32) -> Reason {
        switch code & 0xFF {
        case SQLITE_BUSY: .busy
        case SQLITE_LOCKED: .locked
        case SQLITE_READONLY: .readOnly
        case SQLITE_FULL: .diskFull
        case SQLITE_CANTOPEN: .cannotOpen
        case SQLITE_IOERR: .ioError
        case SQLITE_CORRUPT: .corrupt
        case SQLITE_NOTADB: .notADatabase
        case SQLITE_PERM, SQLITE_AUTH: .permissionDenied
        case SQLITE_CONSTRAINT: .constraint
        case SQLITE_MISUSE: .misuse
        case SQLITE_TOOBIG: .tooBig
        case SQLITE_SCHEMA: .schemaChanged
        case SQLITE_INTERRUPT: .interrupted
        default: .other
        }
    }
}
