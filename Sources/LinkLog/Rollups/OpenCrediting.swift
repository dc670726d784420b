/// Keeps every app open's credited view (`hits.view_id`: the latest view of the same invite code,
/// site and rule at most `FunnelRow.pairingWindowMilliseconds` before it) and the credit rollup
/// (`CreditTable`) in step as rows are written, in the writer's transaction.
///
/// Both sides of a pairing are looked at, so the answer does not depend on the order rows arrive
/// in: a new app open is paired with the latest view already logged, and a new view takes over the
/// opens of its code that it is now the latest view for (a view replayed from a spool after the
/// open, rows written by two instances). What stays out of reach: a view and an open of one code
/// written at the same moment by two instances into PostgreSQL, each unseen by the other's
/// transaction; `linkhost rollup` pairs everything again.
package struct OpenCrediting {
    /// The rows a batch inserted that can change a pairing.
    package struct Inserted {
        /// Views (fallback pages served with 200) that carry a secret token.
        package var views: [Int64] = []
        /// App opens that carry a secret token.
        package var opens: [Int64] = []

        package init() {}

        package var isEmpty: Bool { views.isEmpty && opens.isEmpty }

        /// Notes the row `id` when `record` is one that takes part in pairing.
        package mutating func note(_ record: LogRecord, id: Int64) {
            guard record.secretToken != nil else { return }
            if record.kind == "app_open" {
                opens.append(id)
            } else if record.kind == "fallback", record.status == 200 {
                views.append(id)
            }
        }
    }

    /// Ids per statement: well under both engines' parameter limits.
    private static let chunkSize = 400

    private let connection: any LogSQLConnection

    package init(connection: any LogSQLConnection) {
        self.connection = connection
    }

    /// The correlated subquery giving the credited view of the open aliased `opened`.
    static func latestView(_ dialect: any SQLDialect) -> String {
        """
        (SELECT seen.id FROM hits AS seen
         WHERE seen.secret = opened.secret
           AND seen.ts_ms BETWEEN opened.ts_ms - \(FunnelRow.pairingWindowMilliseconds) AND opened.ts_ms
           AND seen.kind = 'fallback' AND seen.status = 200
           AND \(dialect.isNotDistinct("seen.site", "opened.site")) AND \(dialect.isNotDistinct("seen.rule", "opened.rule"))
         ORDER BY seen.ts_ms DESC, seen.id DESC
         LIMIT 1)
        """
    }

    /// The app opens of the same code, site and rule as the views `ids`, from each view's time to a
    /// pairing window after it: the opens a new view may now be the latest view for. Read through
    /// the index of app opens by code (`hits_open_secret`), never through every row of the code.
    static func opensAfterViews(_ ids: [Int64], _ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue]) {
        var arguments = SQLArguments(dialect: dialect)
        let sql = """
            SELECT opened.id FROM hits AS seen JOIN hits AS opened
              ON opened.secret = seen.secret AND opened.ts_ms BETWEEN seen.ts_ms AND seen.ts_ms + \(FunnelRow.pairingWindowMilliseconds)
             AND opened.kind = 'app_open' AND opened.secret IS NOT NULL
             AND \(dialect.isNotDistinct("opened.site", "seen.site")) AND \(dialect.isNotDistinct("opened.rule", "seen.rule"))
            WHERE seen.id IN (\(ids.map { arguments.add(.integer($0)) }.joined(separator: ", ")))
            """
        return (sql, arguments.values)
    }

    /// Pairs the opens `inserted` touches again and returns how the credit rollup must change, per
    /// grain and key (`CreditTable.columns`); a count may be negative (an open moved to a newer view).
    package func update(for inserted: Inserted) throws -> [(grain: RollupGrain, changes: [RollupKey: Int64])] {
        guard !inserted.isEmpty else { return [] }
        var affected = Set(inserted.opens)
        for chunk in Self.chunks(inserted.views) {
            let (sql, arguments) = Self.opensAfterViews(Array(chunk), connection.dialect)
            try connection.query(sql, arguments) { row in
                if let id = row[0].integer { affected.insert(id) }
            }
        }
        // Each affected open's view before and after; only the ones that changed are written.
        var moved: [(open: Int64, from: Int64?, to: Int64?)] = []
        for chunk in Self.chunks(affected.sorted()) {
            var arguments = SQLArguments(dialect: connection.dialect)
            let sql = """
                SELECT opened.id, opened.view_id, \(Self.latestView(connection.dialect))
                FROM hits AS opened WHERE opened.id IN (\(chunk.map { arguments.add(.integer($0)) }.joined(separator: ", ")))
                """
            try connection.query(sql, arguments.values) { row in
                guard let open = row[0].integer, row[1].integer != row[2].integer else { return }
                moved.append((open, row[1].integer, row[2].integer))
            }
        }
        guard !moved.isEmpty else { return [] }
        for chunk in Self.chunks(moved) {
            var arguments = SQLArguments(dialect: connection.dialect)
            var cases = ""
            for change in chunk {
                // Typed, or PostgreSQL takes an untyped parameter in a CASE for text.
                cases += " WHEN \(arguments.add(.integer(change.open))) THEN CAST(\(arguments.add(change.to.map(SQLValue.integer) ?? .null)) AS BIGINT)"
            }
            let ids = chunk.map { arguments.add(.integer($0.open)) }.joined(separator: ", ")
            try connection.execute("UPDATE hits SET view_id = CASE id\(cases) END WHERE id IN (\(ids))", arguments.values)
        }
        // The views' buckets and fields: -1 where an open left, +1 where it went.
        var delta: [Int64: Int64] = [:]
        for change in moved {
            if let from = change.from { delta[from, default: 0] -= 1 }
            if let to = change.to { delta[to, default: 0] += 1 }
        }
        var hours: [RollupKey: Int64] = [:]
        let columns = CreditTable.columns.joined(separator: ", ")
        for chunk in Self.chunks(delta.keys.sorted()) {
            var arguments = SQLArguments(dialect: connection.dialect)
            let sql = "SELECT id, ts_ms, \(columns) FROM hits WHERE id IN (\(chunk.map { arguments.add(.integer($0)) }.joined(separator: ", ")))"
            try connection.query(sql, arguments.values) { row in
                guard let id = row[0].integer, let time = row[1].integer, let count = delta[id], count != 0 else { return }
                hours[RollupKey(bucketStart: RollupGrain.hour.bucketStart(time), values: Array(row[2...])), default: 0] += count
            }
        }
        var days: [RollupKey: Int64] = [:]
        for (key, count) in hours { days[key.widened(to: .day), default: 0] += count }
        return [(.hour, hours.filter { $0.value != 0 }), (.day, days.filter { $0.value != 0 })]
    }

    private static func chunks<Element>(_ elements: [Element]) -> [ArraySlice<Element>] {
        stride(from: 0, to: elements.count, by: chunkSize).map { elements[$0..<min(elements.count, $0 + chunkSize)] }
    }
}
