internal import CPostgreSQL
import Glibc
import LinkLog

/// One open libpq connection. Not `Sendable`: libpq connections are for one thread at a time, and
/// each user (the log writer's thread, a command's reader) opens its own. Parameters and results
/// travel as text, which libpq converts on the server side; integers come back as `.integer`.
public final class PostgreSQLConnection {
    private let handle: OpaquePointer
    private let settings: PostgreSQLConnectionSettings

    /// Connects, waiting at most `connectTimeoutSeconds` for the server.
    public init(settings: PostgreSQLConnectionSettings, connectTimeoutSeconds: Int = 5) throws {
        self.settings = settings
        // The URL goes in as "dbname", which libpq expands (expand_dbname); the other keywords
        // override what it says.
        let keywords = ["dbname", "connect_timeout", "application_name"]
        let values = [settings.url, String(max(1, connectTimeoutSeconds)), "linkhost"]
        let connection = Self.withOptionalCStrings(keywords) { keywordPointers in
            Self.withOptionalCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else {
            throw PostgreSQLError(context: "connecting to \(settings.displayName)", message: "out of memory")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = settings.redacting(Self.trimmed(PQerrorMessage(connection)))
            PQfinish(connection)
            throw PostgreSQLError(context: "connecting to \(settings.displayName)", message: message)
        }
        handle = connection
        // Keep server notices ("relation already exists, skipping") off standard error.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection is still up as far as libpq knows (it notices a lost server on the
    /// next call, which then fails).
    public var isOpen: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one statement with text parameters and hands each result row to `row`.
    public func query(_ sql: String, _ arguments: [SQLValue], _ row: ([SQLValue]) throws -> Void) throws {
        let result = try run(sql, arguments)
        defer { PQclear(result) }
        let columns = PQnfields(result)
        let types = (0..<columns).map { PQftype(result, $0) }
        for index in 0..<PQntuples(result) {
            try row(
                (0..<columns).map { column in
                    if PQgetisnull(result, index, column) != 0 { return .null }
                    let text = String(cString: PQgetvalue(result, index, column))
                    // int2, int4, int8 and numeric (what SUM of integers gives) come back as integers.
                    if [21, 23, 20, 1700].contains(types[Int(column)]), let value = Int64(text) { return .integer(value) }
                    return .text(text)
                })
        }
    }

    /// Runs one statement that returns no rows; returns how many rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
        let result = try run(sql, arguments)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it (or the commit) throws.
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // On a lost connection this fails too; the connection is dropped by its owner anyway.
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    private func run(_ sql: String, _ arguments: [SQLValue]) throws -> OpaquePointer {
        let texts: [String?] = arguments.map { $0.text }
        let result = Self.withOptionalCStrings(texts) { pointers in
            PQexecParams(handle, sql, Int32(texts.count), nil, pointers, nil, nil, 0)
        }
        guard let result else {
            throw PostgreSQLError(context: "querying \(settings.displayName)", message: settings.redacting(Self.trimmed(PQerrorMessage(handle))))
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = settings.redacting(Self.trimmed(PQresultErrorMessage(result)))
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            PQclear(result)
            throw PostgreSQLError(context: "querying \(settings.displayName)", message: message, sqlState: state)
        }
        return result
    }

    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "" }
        var message = String(cString: text)
        while message.last?.isWhitespace == true { message.removeLast() }
        return message
    }

    /// `strings` as C strings (`nil` stays NULL, which libpq reads as SQL NULL) followed by a NULL
    /// (which ends libpq's keyword lists), alive during `body`.
    private static func withOptionalCStrings<Result>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { string in string.map { strdup($0)! } }
        defer { for copy in copies { free(copy) } }
        let pointers = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
