import PercentCoding

/// The campaign rule, kept in one place: an app open paired with a view (`hits.view_id`) carries
/// that view's campaign — its five `utm_*` columns hold the view's, as one unit, whatever the open
/// reported — and an open paired with none carries what it reported itself (the `utm_*` items of
/// its link, which its `query` column keeps). So every count that groups or filters app opens by a
/// UTM field (`stats`, the funnel, the dashboard, plain SQL on `hits`) files a paired open under its
/// view's campaign, the same group its `opens_after_view` credit is in. Whenever the pairing of an
/// open changes (`OpenCrediting`, `RollupBuilder`, which also brings a log of an earlier build to the rule), its
/// campaign is set here again.
package struct OpenCampaign {
    /// The columns the rule sets, in `HitTable` order: `utm_source`, `utm_medium`, `utm_campaign`,
    /// `utm_term`, `utm_content`.
    package static let columns = LogRecord.utmParameterNames

    private let connection: any LogSQLConnection

    package init(connection: any LogSQLConnection) {
        self.connection = connection
    }

    /// Ids per statement: well under both engines' parameter limits.
    private static let chunkSize = 400

    /// Sets the campaign of each open in `opens` from its view (or, without one, from its own link)
    /// and returns how the full family's hour rollup must change (-1 under the open's old fields, +1
    /// under its new ones) for the opens whose rolled-up campaign changed.
    @discardableResult
    package func assign(_ opens: [Int64]) throws -> [RollupKey: Int64] {
        var changes: [RollupKey: Int64] = [:]
        let dimensions = RollupTable.dimensionColumns
        let utm = Self.columns
        for start in stride(from: 0, to: opens.count, by: Self.chunkSize) {
            let chunk = opens[start..<min(opens.count, start + Self.chunkSize)]
            var arguments = SQLArguments(dialect: connection.dialect)
            let ids = chunk.map { arguments.add(.integer($0)) }.joined(separator: ", ")
            let sql = """
                SELECT opened.id, opened.ts_ms, opened.query, seen.id, \((dimensions.map { "opened.\($0)" } + utm.map { "opened.\($0)" } + utm.map { "seen.\($0)" }).joined(separator: ", "))
                FROM hits AS opened LEFT JOIN hits AS seen ON seen.id = opened.view_id
                WHERE opened.kind = 'app_open' AND opened.id IN (\(ids))
                """
            var updates: [(id: Int64, values: [SQLValue])] = []
            try connection.query(sql, arguments.values) { row in
                guard let id = row[0].integer, let time = row[1].integer else { return }
                let fields = Array(row[4..<(4 + dimensions.count)])
                let current = Array(row[(4 + dimensions.count)..<(4 + dimensions.count + utm.count)])
                let wanted = row[3] == .null ? Self.reported(query: row[2].text) : Array(row[(4 + dimensions.count + utm.count)...])
                guard wanted != current else { return }
                updates.append((id, wanted))
                var moved = fields
                for (position, column) in dimensions.enumerated() {
                    if let index = utm.firstIndex(of: column) { moved[position] = wanted[index] }
                }
                guard moved != fields else { return }
                let bucket = RollupGrain.hour.bucketStart(time)
                changes[RollupKey(bucketStart: bucket, values: fields), default: 0] -= 1
                changes[RollupKey(bucketStart: bucket, values: moved), default: 0] += 1
            }
            for update in updates {
                var arguments = SQLArguments(dialect: connection.dialect)
                let assignments = zip(utm, update.values).map { column, value in "\(column) = \(arguments.add(value))" }
                try connection.execute(
                    "UPDATE hits SET \(assignments.joined(separator: ", ")) WHERE id = \(arguments.add(.integer(update.id)))", arguments.values)
            }
        }
        return changes.filter { $0.value != 0 }
    }

    /// The ids of the app opens in a stretch of the log (a rebuild's chunk, `clauses` on its time)
    /// whose campaign may not follow the rule: every paired one, and the unpaired ones with a link
    /// that has UTM items of its own (an open that lost its view).
    package func opens(where clauses: [String], _ arguments: [SQLValue]) throws -> [Int64] {
        var ids: [Int64] = []
        let all = ["kind = 'app_open'", "(view_id IS NOT NULL OR query LIKE '%utm%')"] + clauses
        try connection.query("SELECT id FROM hits\(SQLCondition.whereClause(all))", arguments) { row in
            if let id = row[0].integer { ids.append(id) }
        }
        return ids
    }

    /// The UTM values an app open's own link carried (`query`, as the log keeps it), in the order
    /// of `columns`: each name's first value, form-decoded as the writer decodes it.
    static func reported(query: String?) -> [SQLValue] {
        var values = [SQLValue](repeating: .null, count: columns.count)
        guard let query else { return values }
        for item in query.split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentCoding.decode(parts[0], plusAsSpace: true).text
            guard let index = columns.firstIndex(of: name), values[index] == .null else { continue }
            values[index] = .text(parts.count > 1 ? PercentCoding.decode(parts[1], plusAsSpace: true).text : "")
        }
        return values
    }
}
