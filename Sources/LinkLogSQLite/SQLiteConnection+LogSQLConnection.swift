import LinkLog

extension SQLiteConnection: LogSQLConnection {
    public var dialect: any SQLDialect { SQLiteDialect() }

    public func query(_ sql: String, _ arguments: [SQLValue], _ row: ([SQLValue]) throws -> Void) throws {
        let statement = try prepare(sql)
        for (offset, value) in arguments.enumerated() { try statement.bind(value, at: offset + 1) }
        let columns = statement.columnCount
        while try statement.step() {
            try row((0..<columns).map { statement.value(at: $0) })
        }
    }

    @discardableResult
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        let statement = try prepare(sql)
        for (offset, value) in arguments.enumerated() { try statement.bind(value, at: offset + 1) }
        while try statement.step() {}
        return changes
    }

    public func insertRows(into table: String, columns: [String], rows: [[SQLValue]]) throws {
        guard !rows.isEmpty else { return }
        let placeholders = columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        let statement = try prepare("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        for row in rows {
            defer { statement.reset() }
            for (offset, value) in row.enumerated() { try statement.bind(value, at: offset + 1) }
            while try statement.step() {}
        }
    }

    public func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(.immediate, body)
    }
}

/// SQLite's spelling of what engines spell differently: numbered `?N` parameters, and `IS` as
/// NULL-safe equality (which, unlike `IS NOT DISTINCT FROM` before SQLite 3.39, every SQLite reads).
public struct SQLiteDialect: SQLDialect {
    public init() {}

    public func placeholder(_ number: Int) -> String {
        "?\(number)"
    }

    public func isNotDistinct(_ left: String, _ right: String) -> String {
        "\(left) IS \(right)"
    }

    /// `CROSS JOIN`: SQLite keeps the written order, the outer side first, and loops.
    public func lookupJoin(_ outer: String, _ table: String, as alias: String, columns: [String], on condition: String) -> String {
        "\(outer) CROSS JOIN \(table) AS \(alias) ON \(condition)"
    }
}
