import LinkLog

/// The log writer's side of a PostgreSQL database: one connection, batches inserted as multi-row
/// `INSERT`s and their counts added to the rollups with `INSERT … ON CONFLICT DO UPDATE`, all in one
/// transaction. Several linkhost instances may write at once: each adds to the same rollup rows,
/// and they take those rows' locks in one order (keys sorted), so two batches cannot deadlock.
final class PostgreSQLLogStore: LogStore {
    private let connection: PostgreSQLConnection

    /// Rows per `INSERT` (a parameter per column of `HitTable.recordColumns`, 21 today; PostgreSQL
    /// takes at most 65,535 per statement).
    static let rowsPerStatement = 1000

    init(settings: PostgreSQLConnectionSettings, displayName: String) throws {
        connection = try PostgreSQLConnection(settings: settings)
        try PostgreSQLLogSchema.migrate(connection, displayName: displayName)
    }

    /// Whether the connection is still up; after a server restart libpq reports it closed and the
    /// writer opens a new store.
    var isStillCurrent: Bool { connection.isOpen }

    func insert(_ records: [LogRecord], droppedRecords: Int, marker: LogBatchMarker?) throws {
        try connection.transaction {
            var start = 0
            var paired = OpenCrediting.Inserted()
            while start < records.count {
                let chunk = records[start..<min(records.count, start + Self.rowsPerStatement)]
                try insertHits(chunk, noting: &paired)
                start += chunk.count
            }
            for (set, grain, counts) in RollupTable.counts(of: records) { try addToRollup(set.table(grain), set.columns, counts) }
            for (grain, changes) in try OpenCrediting(connection: connection).update(for: paired) {
                try addToRollup(CreditTable.table(grain), CreditTable.columns, changes)
            }
            if droppedRecords > 0 {
                try connection.execute(
                    "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = meta.value + EXCLUDED.value",
                    [.text(HitTable.droppedRecordsKey), .integer(Int64(droppedRecords))])
            }
            if let marker {
                try connection.execute(
                    "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = GREATEST(meta.value, EXCLUDED.value)",
                    [.text(marker.metaKey), .integer(marker.sequence)])
            }
        }
    }

    func markedSequence(_ key: String) throws -> Int64? {
        try connection.queryInteger("SELECT value FROM meta WHERE key = $1", [.text(LogBatchMarker(key: key, sequence: 0).metaKey)])
    }

    func deleteRows(before cutoffMilliseconds: Int64) throws -> Int {
        try connection.transaction {
            let deleted = try connection.execute("DELETE FROM hits WHERE ts_ms < $1", [.integer(cutoffMilliseconds)])
            let tables = RollupTableSet.allCases.flatMap { set in RollupGrain.allCases.map(set.table) } + RollupGrain.allCases.map(CreditTable.table)
            for table in tables {
                try connection.execute("DELETE FROM \(table) WHERE bucket_ms < $1", [.integer(cutoffMilliseconds)])
            }
            return deleted
        }
    }

    /// Inserts `records`, noting in `paired` the ids of the rows that take part in pairing (read
    /// back with `RETURNING`, which says nothing of order, so each row says what it is).
    private func insertHits(_ records: ArraySlice<LogRecord>, noting paired: inout OpenCrediting.Inserted) throws {
        let columns = HitTable.recordColumnNames
        var arguments: [SQLValue] = []
        arguments.reserveCapacity(records.count * columns.count)
        var tuples: [String] = []
        for record in records {
            let first = arguments.count
            arguments += record.columnValues
            tuples.append("(" + (1...columns.count).map { "$\(first + $0)" }.joined(separator: ", ") + ")")
        }
        try connection.query(
            "INSERT INTO hits (\(columns.joined(separator: ", "))) VALUES \(tuples.joined(separator: ", ")) RETURNING id, \(OpenCrediting.Inserted.roleSQL)",
            arguments
        ) { row in
            guard let id = row[0].integer else { return }
            paired.note(role: row[1], token: row[2], id: id)
        }
    }

    /// Adds `counts` to the rollup `table` (negative counts too, for the credit rollup; a credit row
    /// brought to zero is deleted, as a rebuild would not make it).
    private func addToRollup(_ table: String, _ dimensions: [String], _ counts: [RollupKey: Int64]) throws {
        let keyColumns = PostgreSQLLogSchema.keyColumns(dimensions)
        let rows = counts.map { key, count in [SQLValue.integer(key.bucketStart)] + key.values + [.integer(count)] }
            .sorted { $0.lexicographicallyPrecedes($1, by: Self.valuePrecedes) }
        let width = dimensions.count + 2
        var start = 0
        while start < rows.count {
            let chunk = rows[start..<min(rows.count, start + Self.rowsPerStatement)]
            var arguments: [SQLValue] = []
            var tuples: [String] = []
            for row in chunk {
                let first = arguments.count
                arguments += row
                tuples.append("(" + (1...width).map { "$\(first + $0)" }.joined(separator: ", ") + ")")
            }
            try connection.execute(
                """
                INSERT INTO \(table) (\(keyColumns), hits) VALUES \(tuples.joined(separator: ", "))
                ON CONFLICT (\(keyColumns)) DO UPDATE SET hits = \(table).hits + EXCLUDED.hits
                """, arguments)
            start += chunk.count
        }
        if counts.values.contains(where: { $0 < 0 }) {
            try connection.execute(
                "DELETE FROM \(table) WHERE hits <= 0 AND bucket_ms BETWEEN $1 AND $2",
                [
                    .integer(counts.keys.map(\.bucketStart).min()!), .integer(counts.keys.map(\.bucketStart).max()!),
                ])
        }
    }

    /// One fixed order of values (NULL first, then integers, then text by its bytes), for sorting keys.
    private static func valuePrecedes(_ left: SQLValue, _ right: SQLValue) -> Bool {
        switch (left, right) {
        case (.null, .null): false
        case (.null, _): true
        case (_, .null): false
        case (.integer(let a), .integer(let b)): a < b
        case (.integer, .text): true
        case (.text, .integer): false
        case (.text(let a), .text(let b)): Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
        }
    }
}
