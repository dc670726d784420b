/// The statements behind `LogReader.funnel`, and how their results become rows.
///
/// Two statements. `counted` counts views, clicks and app opens per group, the filter applying to
/// each row; with rollups, whole days and hours come from the rollup tables and only the cut hours
/// at the ends of the range from the hits (`RollupPlan`). `credited` counts the app opens that
/// followed a view, per group of the view, the filter applying to the view: with rollups, from the
/// pairing the writer keeps (`OpenCrediting`: `hits.view_id` and the `CreditTable` rollup), read
/// like `counted`; without, by pairing at query time — for every app open that carries a secret
/// token, a correlated subquery walks the views of its code (`hits_view_secret`; in SQLite the code's
/// chain, `SQLiteViewChains`) backwards from the open's time to the
/// latest view of the same token, site and rule at most `FunnelRow.pairingWindowMilliseconds`
/// before it. That second way is slow on a large log (about a second on 10 million rows) and is
/// kept as the reference the rollup answer is tested against. It is `MATERIALIZED` so each open's
/// view is found once (folded into the outer query, a filter on the view can make the engine run
/// the subquery for every pair of view and open), and the opens it scans are narrowed by the
/// filter's time, site and rule only as far as that cannot change the answer (a paired open shares
/// the view's site and rule and comes at most the window after it).
/// The two are joined by group key here, not in SQL, and sorted here too (`StatsDimension.keyPrecedes`).
struct FunnelQuery {
    let dimension: FunnelDimension?
    /// The filter without its kind (the funnel's columns are fixed kinds) or limit (applied to groups).
    let filter: LogFilter
    let limit: Int?
    /// Where `counted` reads each part of the time range.
    let pieces: [CountPiece]
    /// Whether `credited` reads the pairing the writer kept.
    let usesRollups: Bool

    /// What a row must be to count in any column of `counted`.
    static let countedRows = [
        "kind IN ('fallback', 'event', 'app_open')",
        "(kind <> 'fallback' OR status = 200)",
        "(kind <> 'event' OR event IN ('open-app', 'store', 'copy'))",
    ]

    init(dimension: FunnelDimension?, filter: LogFilter, usesRollups: Bool) {
        self.dimension = dimension
        var rows = filter
        rows.kind = nil
        rows.limit = nil
        self.filter = rows
        self.limit = filter.limit
        self.usesRollups = usesRollups
        pieces =
            usesRollups && dimension?.statsDimension.isRolledUp ?? true
            ? RollupPlan.pieces(since: rows.since, until: rows.until) : [CountPiece(source: .hits, since: rows.since, until: rows.until)]
    }

    /// The credited columns: every paired open, the bypass opens and the installs, each a sum of
    /// `counting` over the rows (the open's `event` tells them apart; see `CreditTable`).
    static var creditedCounts: [(name: String, aggregate: (_ counting: String) -> String)] {
        [
            ("opens", { "SUM(\($0))" }),
            ("bypasses", { "SUM(CASE WHEN event IN (\(quoted(FunnelRow.bypassEvents))) THEN \($0) ELSE 0 END)" }),
            ("installs", { "SUM(CASE WHEN event IN (\(quoted(FunnelRow.installEvents))) THEN \($0) ELSE 0 END)" }),
        ]
    }

    private static func quoted(_ values: [String]) -> String {
        values.map { "'\($0)'" }.joined(separator: ", ")
    }

    private func keyExpression(timeColumn: String = "ts_ms") -> String {
        dimension?.statsDimension.keyExpression(timeColumn: timeColumn) ?? "NULL"
    }

    /// The count columns of `counted` and which rows each counts; a portable `CASE`, since engines
    /// differ in summing booleans.
    static let countedKinds = [
        ("views", "kind = 'fallback' AND \(ClientClass.personCondition)"), ("open_clicks", "kind = 'event' AND event = 'open-app'"),
        ("store_clicks", "kind = 'event' AND event = 'store'"),
        ("copies", "kind = 'event' AND event = 'copy'"), ("app_opens", "kind = 'app_open'"),
        ("previews", "kind = 'fallback' AND NOT \(ClientClass.personCondition)"),
    ]

    /// Per group: views, open clicks, store clicks, copies, app opens, previews; `nil` for an empty
    /// time range.
    func countedStatement(_ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue])? {
        let dimension = dimension
        let count = CountStatement(
            key: { timeColumn in dimension?.statsDimension.keyExpression(timeColumn: timeColumn) ?? "NULL" },
            counts: Self.countedKinds.map { name, condition in (name, { counting in "SUM(CASE WHEN \(condition) THEN \(counting) ELSE 0 END)" }) },
            fixedClauses: Self.countedRows,
            rollupTable: RollupTableSet.narrowest(
                containing: Set(
                    ["kind", "status", "event", "client_class"] + [dimension?.statsDimension.column].compactMap { $0 }
                        + SQLCondition.equalities(of: filter).map(\.column))
            ).table)
        return count.statement(pieces: pieces, filter: filter, dialect: dialect)
    }

    /// Per group of the view: how many app opens it is the latest view before; `nil` for an empty
    /// time range.
    func creditedStatement(_ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue])? {
        guard usesRollups else { return pairingStatement(dialect) }
        let dimension = dimension
        var count = CountStatement(
            key: { timeColumn in dimension?.statsDimension.keyExpression(timeColumn: timeColumn) ?? "NULL" },
            counts: Self.creditedCounts,
            fixedClauses: [],
            rollupTable: CreditTable.table)
        count.hitsSource = CreditTable.pairedViews(dialect)
        count.hitsCounting = CreditTable.pairedViewsCounting
        return count.statement(pieces: pieces, filter: filter, dialect: dialect)
    }

    /// `creditedStatement` by pairing every open in range at query time (the reference).
    private func pairingStatement(_ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue]) {
        var arguments = SQLArguments(dialect: dialect)
        let window = FunnelRow.pairingWindowMilliseconds
        let opens = LogFilter(
            since: filter.since,
            until: filter.until.map { $0 > Int64.max - window ? Int64.max : $0 + window },
            rule: filter.rule,
            site: filter.site
        )
        let openClauses = SQLCondition.clauses(of: opens, into: &arguments) + ["kind = 'app_open'", OpenCrediting.pairable]
        let viewClauses = SQLCondition.clauses(of: filter, into: &arguments)
        // The open's event as `opened_event`: the view's own columns keep their names for the key
        // and the filter.
        let counts = Self.creditedCounts.map { "\($0.aggregate("1").replacingOccurrences(of: "event IN", with: "opened_event IN")) AS \($0.name)" }
        let sql = """
            WITH paired AS MATERIALIZED (
                SELECT \(OpenCrediting.latestView(dialect)) AS view_id, opened.event AS opened_event
                FROM hits AS opened\(SQLCondition.whereClause(openClauses))
            )
            SELECT \(keyExpression()) AS key, \(counts.joined(separator: ", "))
            FROM paired JOIN hits ON hits.id = paired.view_id\(SQLCondition.whereClause(viewClauses))
            GROUP BY 1
            """
        return (sql, arguments.values)
    }

    /// The funnel rows from the counted groups and the credited opens per group: busiest first (ties
    /// by key), or by date for `day`, at most the limit; one row of zeros when ungrouped and empty.
    func rows(counted: [(key: SQLValue, counts: [Int])], credited: [SQLValue: [Int]]) -> [FunnelRow] {
        let keyOrder = dimension?.statsDimension ?? .kind
        let sorted = counted.sorted { left, right in
            if dimension != .day, left.counts[0] != right.counts[0] { return left.counts[0] > right.counts[0] }
            return keyOrder.keyPrecedes(left.key, right.key)
        }
        var rows = sorted.prefix(limit ?? Int.max).map { group in
            let credits = credited[group.key] ?? [0, 0, 0]
            return FunnelRow(
                key: dimension.flatMap { $0.statsDimension.key(from: group.key) }, views: group.counts[0], openClicks: group.counts[1],
                storeClicks: group.counts[2], copies: group.counts[3], appOpens: group.counts[4], opensAfterView: credits[0],
                bypassOpens: credits[1], installs: credits[2], previews: group.counts[5])
        }
        if dimension == nil, rows.isEmpty {
            rows.append(FunnelRow(key: nil, views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0))
        }
        return rows
    }
}
