import LinkLog

extension PostgreSQLConnection: LogSQLConnection {
    public var dialect: any SQLDialect { PostgreSQLDialect() }

    public func insertRows(into table: String, columns: [String], rows: [[SQLValue]]) throws {
        // 1,000 rows of a rollup's 12 columns stay well under PostgreSQL's 65,535 parameters.
        let perStatement = max(1, 12_000 / max(1, columns.count))
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(rows.count, start + perStatement)]
            var arguments: [SQLValue] = []
            var tuples: [String] = []
            for row in batch {
                let first = arguments.count
                arguments += row
                tuples.append("(" + (1...row.count).map { "$\(first + $0)" }.joined(separator: ", ") + ")")
            }
            try execute("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(tuples.joined(separator: ", "))", arguments)
            start += batch.count
        }
    }

    public func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(body)
    }
}
