import LinkLog

extension SQLiteConnection: LogSQLConnection {
    public var dialect: any SQLDialect { SQLiteDialect() }

    public func query(_ sql: String, _ arguments: [SQLValue], _ row: ([SQLValue]) throws -> Void) throws {
        try withCachedStatement(sql) { statement in
            for (offset, value) in arguments.enumerated() { try statement.bind(value, at: offset + 1) }
            let columns = statement.columnCount
            while try statement.step() {
                try row((0..<columns).map { statement.value(at: $0) })
            }
        }
    }

    @discardableResult
    public func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try withCachedStatement(sql) { statement in
            for (offset, value) in arguments.enumerated() { try statement.bind(value, at: offset + 1) }
            while try statement.step() {}
            return changes
        }
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

    public var findsViewsByCodeThroughChains: Bool { true }

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

    /// A JSON array read by `json_each`: SQLite looks each of its values up in the column's index.
    public func isOneOf(_ column: String, _ type: SQLListType, _ placeholder: String) -> String {
        "\(column) IN (SELECT value FROM json_each(\(placeholder)))"
    }

    /// The values as a JSON array: integers as numbers, texts as strings (`"` and `\\` escaped,
    /// control characters as `\\u00XX`), NULL as null.
    public func listValue(_ values: [SQLValue]) -> SQLValue {
        var json: [UInt8] = [UInt8(ascii: "[")]
        for value in values {
            if json.count > 1 { json.append(UInt8(ascii: ",")) }
            switch value {
            case .null:
                json += "null".utf8
            case .integer(let number):
                json += String(number).utf8
            case .text(let text):
                json.append(UInt8(ascii: "\""))
                for byte in text.utf8 {
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                        json += [UInt8(ascii: "\\"), byte]
                    case ..<0x20:
                        let hex = Array("0123456789abcdef".utf8)
                        json += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                    default:
                        json.append(byte)
                    }
                }
                json.append(UInt8(ascii: "\""))
            }
        }
        json.append(UInt8(ascii: "]"))
        return .text(String(decoding: json, as: UTF8.self))
    }
}
