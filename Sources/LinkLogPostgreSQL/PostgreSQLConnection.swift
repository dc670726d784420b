internal import CPostgreSQL
import Glibc
import LinkLog

/// One open libpq connection. Not `Sendable`: libpq connections are for one thread at a time, and
/// each user (the log writer's thread, a command's reader) opens its own. Parameters and results
/// travel as text, which libpq converts on the server side; integers come back as `.integer`.
public final class PostgreSQLConnection {
    private let handle: OpaquePointer
    private let settings: PostgreSQLConnectionSettings
    /// The statements prepared on this connection (`prepared: true`), by their text: a statement the
    /// writer runs for every batch is parsed and planned once per connection, not once per batch.
    private var preparedNames: [String: String] = [:]

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
        try query(sql, arguments, prepared: false, row)
    }

    /// `query`; with `prepared`, the statement is prepared on the connection the first time and run
    /// as prepared after that (for a statement of fixed text run many times).
    public func query(_ sql: String, _ arguments: [SQLValue], prepared: Bool, _ row: ([SQLValue]) throws -> Void) throws {
        let result = try run(sql, arguments, prepared: prepared)
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
        try execute(sql, arguments, prepared: false)
    }

    /// `execute`, the statement prepared on the connection when `prepared`.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [SQLValue], prepared: Bool) throws -> Int {
        let result = try run(sql, arguments, prepared: prepared)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Loads `rows` (values in `columns` order) into `table` with `COPY … FROM STDIN` in text format:
    /// one statement and one stream, where a multi-row `INSERT` is parsed and planned per statement
    /// (most of a rollup rebuild's time went there).
    public func copyRows(into table: String, columns: [String], rows: [[SQLValue]]) throws {
        guard !rows.isEmpty else { return }
        let started = PQexec(handle, "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN")
        let startStatus = started.map(PQresultStatus)
        let startMessage = started.map { Self.trimmed(PQresultErrorMessage($0)) } ?? Self.trimmed(PQerrorMessage(handle))
        PQclear(started)
        guard startStatus == PGRES_COPY_IN else {
            throw PostgreSQLError(context: "copying into \(table) of \(settings.displayName)", message: settings.redacting(startMessage))
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        var sent = true
        for row in rows {
            for (index, value) in row.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: "\t")) }
                Self.appendCopyText(value, to: &buffer)
            }
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 1 << 20 {
                sent = sent && Self.put(buffer, on: handle)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        if !buffer.isEmpty { sent = sent && Self.put(buffer, on: handle) }
        let ended = PQputCopyEnd(handle, sent ? nil : "linkhost could not send the rows") == 1
        // The COPY's own result, then the end of results (nil).
        var failure: String?
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) != PGRES_COMMAND_OK, failure == nil { failure = Self.trimmed(PQresultErrorMessage(result)) }
            PQclear(result)
        }
        guard sent, ended, failure == nil else {
            let message = failure ?? Self.trimmed(PQerrorMessage(handle))
            throw PostgreSQLError(context: "copying into \(table) of \(settings.displayName)", message: settings.redacting(message))
        }
    }

    /// Sends one block of COPY data (blocking connection: PQputCopyData waits until it is queued).
    private static func put(_ bytes: [UInt8], on handle: OpaquePointer) -> Bool {
        bytes.withUnsafeBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { PQputCopyData(handle, $0, Int32(pointer.count)) == 1 }
        }
    }

    /// `value` as COPY's text format writes it: `\N` for NULL, and backslash, tab, newline and
    /// carriage return escaped with a backslash.
    static func appendCopyText(_ value: SQLValue, to buffer: inout [UInt8]) {
        switch value {
        case .null:
            buffer += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
        case .integer(let number):
            buffer += String(number).utf8
        case .text(let text):
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case UInt8(ascii: "\t"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case UInt8(ascii: "\n"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\r"): buffer += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                default: buffer.append(byte)
                }
            }
        }
    }

    /// `values` as a PostgreSQL array literal in text form (`{1,NULL,"a \\"b\\""}`), for one array
    /// parameter in place of a parameter per value: a statement of fixed text whatever the number of
    /// rows, so it can be prepared once. Texts are always quoted, backslash and double quote escaped.
    static func arrayLiteral(_ values: some Sequence<SQLValue>) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for value in values {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            switch value {
            case .null:
                bytes += "NULL".utf8
            case .integer(let number):
                bytes += String(number).utf8
            case .text(let text):
                bytes.append(UInt8(ascii: "\""))
                for byte in text.utf8 {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                    bytes.append(byte)
                }
                bytes.append(UInt8(ascii: "\""))
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
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

    private func run(_ sql: String, _ arguments: [SQLValue], prepared: Bool) throws -> OpaquePointer {
        let texts: [String?] = arguments.map { $0.text }
        let name = prepared ? try preparedName(sql, parameters: texts.count) : nil
        let result = Self.withOptionalCStrings(texts) { pointers in
            if let name {
                PQexecPrepared(handle, name, Int32(texts.count), pointers, nil, nil, 0)
            } else {
                PQexecParams(handle, sql, Int32(texts.count), nil, pointers, nil, nil, 0)
            }
        }
        return try checked(result)
    }

    /// The name `sql` is prepared under on this connection, preparing it the first time.
    private func preparedName(_ sql: String, parameters: Int) throws -> String {
        if let name = preparedNames[sql] { return name }
        let name = "linkhost_\(preparedNames.count + 1)"
        PQclear(try checked(PQprepare(handle, name, sql, Int32(parameters), nil)))
        preparedNames[sql] = name
        return name
    }

    /// `result` if it says the statement ran, else the server's error (the result cleared).
    private func checked(_ result: OpaquePointer?) throws -> OpaquePointer {
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
