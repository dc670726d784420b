import LinkLog

/// The log writer's side of a PostgreSQL database: one connection, each batch inserted by one
/// prepared `INSERT` of arrays and its counts added to the rollups by prepared
/// `INSERT … ON CONFLICT DO UPDATE`s, all in one transaction. Several linkhost instances may write
/// at once: each adds to the same rollup rows, and they take those rows' locks in one order (keys
/// sorted), so two batches cannot deadlock.
final class PostgreSQLLogStore: LogStore {
    private let connection: PostgreSQLConnection
    /// Rows PostgreSQL refused since this store opened (see `insert`).
    private(set) var refusedRows = 0

    init(settings: PostgreSQLConnectionSettings, displayName: String) throws {
        connection = try PostgreSQLConnection(settings: settings)
        try PostgreSQLLogSchema.migrate(connection, displayName: displayName)
    }

    /// Whether the connection is still up; after a server restart libpq reports it closed and the
    /// writer opens a new store.
    var isStillCurrent: Bool { connection.isOpen }

    /// The batch's rows go in under a savepoint: when PostgreSQL refuses the insert for a value
    /// (a data exception or a constraint, SQLSTATE classes 22 and 23: a NUL in a text, say, which
    /// SQLite takes), the batch is rolled back to it and its rows inserted one by one, each under a
    /// savepoint of its own, and the ones refused are counted (`refusedRows`, and `refused_records`
    /// in `meta`) and left out — the batch and the rows after it go on. Any other failure (the
    /// connection, the server) fails the batch, which the writer retries.
    func insert(_ records: [LogRecord], droppedRecords: Int, marker: LogBatchMarker?) throws {
        let refusedNow = try connection.transaction {
            var paired = OpenCrediting.Inserted()
            var previews = PreviewApps()
            var kept = records
            var refused = 0
            try connection.execute("SAVEPOINT linkhost_batch")
            do {
                try insertHits(records[...], noting: &paired, &previews)
                try connection.execute("RELEASE SAVEPOINT linkhost_batch")
            } catch let error as PostgreSQLError where Self.refusesAValue(error) {
                try connection.execute("ROLLBACK TO SAVEPOINT linkhost_batch")
                paired = OpenCrediting.Inserted()
                previews = PreviewApps()
                kept = []
                for index in records.indices {
                    try connection.execute("SAVEPOINT linkhost_row")
                    do {
                        try insertHits(records[index...index], noting: &paired, &previews)
                        try connection.execute("RELEASE SAVEPOINT linkhost_row")
                        kept.append(records[index])
                    } catch let error as PostgreSQLError where Self.refusesAValue(error) {
                        try connection.execute("ROLLBACK TO SAVEPOINT linkhost_row")
                        refused += 1
                    }
                }
            }
            if refused > 0 {
                try connection.execute(
                    "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = meta.value + EXCLUDED.value",
                    [.text(HitTable.refusedRecordsKey), .integer(Int64(refused))])
            }
            try previews.fill(on: connection)
            for (set, grain, counts) in RollupTable.counts(of: kept) { try addToRollup(set.table(grain), set.columns, counts) }
            let changes = try OpenCrediting(connection: connection).update(for: paired)
            for (grain, credits) in changes.credits { try addToRollup(CreditTable.table(grain), CreditTable.columns, credits) }
            for (set, grain, counts) in changes.hits { try addToRollup(set.table(grain), set.columns, counts) }
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
            return refused
        }
        refusedRows += refusedNow
    }

    /// Whether PostgreSQL refused a value rather than failed: a data exception (class 22) or an
    /// integrity constraint (class 23), https://www.postgresql.org/docs/current/errcodes-appendix.html.
    static func refusesAValue(_ error: PostgreSQLError) -> Bool {
        guard let state = error.sqlState else { return false }
        return state.hasPrefix("22") || state.hasPrefix("23")
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

    /// Inserts `records`, noting in `paired` the ids of the rows that take part in pairing and in
    /// `previews` the fallback pages no person fetched (read back with `RETURNING`, which says
    /// nothing of order, so each row says what it is; the other rows are not sent back).
    private func insertHits(_ records: ArraySlice<LogRecord>, noting paired: inout OpenCrediting.Inserted, _ previews: inout PreviewApps) throws {
        let rows = records.map(\.columnValues)
        let arguments = HitTable.recordColumns.indices.map { column in SQLValue.text(PostgreSQLConnection.arrayLiteral(rows.lazy.map { $0[column] })) }
        try connection.query(Self.insertHitsSQL, arguments, prepared: true) { row in
            guard let id = row[0].integer else { return }
            paired.note(role: row[1], token: row[2], id: id)
            if row[3] != .null { previews.note(clientClass: row[3].text, userAgent: row[4].text, id: id) }
        }
    }

    /// Every record column as one array parameter (`unnest` makes the rows): one statement text for
    /// any number of rows, prepared once per connection. A multi-row `VALUES` with a parameter per
    /// value was a new text for each batch size, parsed and planned by the server for every batch:
    /// most of the server's processor time per row (bench/instructions with BENCH_INSTR_LOG=postgresql).
    static let insertHitsSQL: String = {
        let columns = HitTable.recordColumns
        let arrays = columns.enumerated().map { index, column in "$\(index + 1)::\(PostgreSQLLogSchema.typeName(column.type))[]" }
        return """
            WITH inserted AS (
              INSERT INTO hits (\(columns.map(\.name).joined(separator: ", ")))
              SELECT * FROM unnest(\(arrays.joined(separator: ", ")))
              RETURNING id, \(OpenCrediting.Inserted.roleSQL),
                CASE WHEN kind = 'fallback' AND \(ClientClass.notPersonCondition) THEN client_class END, user_agent)
            SELECT * FROM inserted AS returned (id, role, token, preview, agent) WHERE role IS NOT NULL OR preview IS NOT NULL
            """
    }()

    /// Adds `counts` to the rollup `table` (negative counts too, for the credit rollup; a credit row
    /// brought to zero is deleted, as a rebuild would not make it). The rows go in as one array per
    /// column, in the order of their keys, so batches of several writers take the rows' locks in one
    /// order and cannot deadlock.
    private func addToRollup(_ table: String, _ dimensions: [String], _ counts: [RollupKey: Int64]) throws {
        guard !counts.isEmpty else { return }
        let rows = counts.map { key, count in [SQLValue.integer(key.bucketStart)] + key.values + [.integer(count)] }
            .sorted { $0.lexicographicallyPrecedes($1, by: Self.valuePrecedes) }
        let arguments = (0..<(dimensions.count + 2)).map { column in SQLValue.text(PostgreSQLConnection.arrayLiteral(rows.lazy.map { $0[column] })) }
        try connection.execute(Self.addToRollupSQL(table, dimensions), arguments, prepared: true)
        if counts.values.contains(where: { $0 < 0 }) {
            try connection.execute(
                "DELETE FROM \(table) WHERE hits <= 0 AND bucket_ms BETWEEN $1 AND $2",
                [
                    .integer(counts.keys.map(\.bucketStart).min()!), .integer(counts.keys.map(\.bucketStart).max()!),
                ])
        }
    }

    /// The upsert of `table`'s rows from one array per column (see `addToRollup`).
    private static func addToRollupSQL(_ table: String, _ dimensions: [String]) -> String {
        let keyColumns = PostgreSQLLogSchema.keyColumns(dimensions)
        let types = ["BIGINT"] + dimensions.map(PostgreSQLLogSchema.rollupDimensionType) + ["BIGINT"]
        let arrays = types.enumerated().map { index, type in "$\(index + 1)::\(type)[]" }
        return """
            INSERT INTO \(table) (\(keyColumns), hits) SELECT * FROM unnest(\(arrays.joined(separator: ", ")))
            ON CONFLICT (\(keyColumns)) DO UPDATE SET hits = \(table).hits + EXCLUDED.hits
            """
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
