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

    public func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(.immediate, body)
    }
}
