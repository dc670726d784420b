internal import CSQLite
import LinkLog

/// One compiled SQL statement of a connection. Parameters are numbered from 1 (SQLite's rule),
/// result columns from 0. The statement keeps its connection open and is finalized when released
/// — unless it is lent from the connection's cache (`SQLiteConnection.withCachedStatement`), which
/// keeps it.
public final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection
    private let owned: Bool

    init(handle: OpaquePointer, connection: SQLiteConnection, owned: Bool = true) {
        self.handle = handle
        self.connection = connection
        self.owned = owned
    }

    deinit {
        if owned { sqlite3_finalize(handle) }
    }

    // MARK: Binding

    /// Binds text (SQLite copies it at once); `nil` binds NULL.
    public func bind(text: String?, at index: Int) throws {
        guard var text else { return try bindNull(at: index) }
        let code = text.withUTF8 { bytes -> Int32 in
            guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                // An empty buffer may have no address, and a NULL pointer would bind NULL, not "".
                return linkhost_sqlite_bind_text_copy(handle, Int32(index), "", 0)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                linkhost_sqlite_bind_text_copy(handle, Int32(index), $0, Int32(bytes.count))
            }
        }
        try check(code)
    }

    /// Binds `count` bytes of UTF-8 at `bytes` without SQLite copying them: they must stay valid and
    /// unchanged until the statement has been stepped and reset (see `SQLiteTextArena`).
    func bind(unownedText bytes: UnsafePointer<CChar>, count: Int, at index: Int) throws {
        try check(linkhost_sqlite_bind_text_static(handle, Int32(index), bytes, Int32(count)))
    }

    /// Binds a 64-bit integer; `nil` binds NULL.
    public func bind(integer: Int64?, at index: Int) throws {
        guard let integer else { return try bindNull(at: index) }
        try check(sqlite3_bind_int64(handle, Int32(index), integer))
    }

    /// Binds a log value: NULL, an integer or text.
    public func bind(_ value: SQLValue, at index: Int) throws {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer: integer, at: index)
        case .text(let text): try bind(text: text, at: index)
        }
    }

    /// Binds NULL.
    public func bindNull(at index: Int) throws {
        try check(sqlite3_bind_null(handle, Int32(index)))
    }

    // MARK: Running

    /// Runs the statement to its next row: `true` when a row is ready to read, `false` when done.
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: code, connection: connection.handle)
        }
    }

    /// Makes the statement ready to run again (bindings stay). Never throws: `reset` only repeats the
    /// error the last `step` already reported.
    public func reset() {
        sqlite3_reset(handle)
    }

    // MARK: Reading the current row

    /// How many columns a row has.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// Whether column `index` of the current row is NULL.
    public func isNull(at index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    /// Column `index` as an integer (NULL reads as 0).
    public func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    /// Column `index` as text; `nil` for NULL. Numbers are converted by SQLite; invalid UTF-8 is repaired.
    public func text(at index: Int) -> String? {
        guard !isNull(at: index), let bytes = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as a log value: NULL, an integer, or text (for any other type, as SQLite
    /// converts it).
    public func value(at index: Int) -> SQLValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(int64(at: index))
        default: SQLValue(text(at: index))
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection.handle) }
    }
}
