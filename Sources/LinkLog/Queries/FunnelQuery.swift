/// The statements behind `LogReader.funnel`, and how their results become rows.
///
/// Two statements. `counted` counts views, clicks and app opens per group, the filter applying to
/// each row; with rollups, whole days and hours come from the rollup tables and only the cut hours
/// at the ends of the range from the hits (`RollupPlan`). `credited` pairs app opens with views: for every app open that carries a secret token,
/// `paired` finds the latest view of the same token, site and rule at most
/// `FunnelRow.pairingWindowMilliseconds` before it, with a correlated subquery that walks
/// `hits_secret_time` backwards from the open's time and stops at the first view; it is
/// `MATERIALIZED` so each open's view is found once (folded into the outer query, a filter on the
/// view can make the engine run the subquery for every pair of view and open). The outer query looks
/// each open's view up by id and groups by the view's row, the filter applying to the view. The opens
/// scanned are narrowed by the filter's time, site and rule only as far as that cannot change the
/// answer (a paired open shares the view's site and rule and comes at most the window after it).
/// The two are joined by group key here, not in SQL, and sorted here too (`StatsDimension.keyPrecedes`).
struct FunnelQuery {
    let dimension: FunnelDimension?
    /// The filter without its kind (the funnel's columns are fixed kinds) or limit (applied to groups).
    let filter: LogFilter
    let limit: Int?
    /// Where `counted` reads each part of the time range.
    let pieces: [CountPiece]

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
        pieces =
            usesRollups ? RollupPlan.pieces(since: rows.since, until: rows.until) : [CountPiece(source: .hits, since: rows.since, until: rows.until)]
    }

    private func keyExpression(timeColumn: String = "ts_ms") -> String {
        dimension?.statsDimension.keyExpression(timeColumn: timeColumn) ?? "NULL"
    }

    /// The count columns of `counted` and which rows each counts; a portable `CASE`, since engines
    /// differ in summing booleans.
    static let countedKinds = [
        ("views", "kind = 'fallback'"), ("open_clicks", "kind = 'event' AND event = 'open-app'"), ("store_clicks", "kind = 'event' AND event = 'store'"),
        ("copies", "kind = 'event' AND event = 'copy'"), ("app_opens", "kind = 'app_open'"),
    ]

    /// Per group: views, open clicks, store clicks, copies, app opens; `nil` for an empty time range.
    func countedStatement(_ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue])? {
        let dimension = dimension
        let count = CountStatement(
            key: { timeColumn in dimension?.statsDimension.keyExpression(timeColumn: timeColumn) ?? "NULL" },
            counts: Self.countedKinds.map { name, condition in (name, { counting in "SUM(CASE WHEN \(condition) THEN \(counting) ELSE 0 END)" }) },
            fixedClauses: Self.countedRows,
            rollups: RollupTableSet.narrowest(
                containing: Set(
                    ["kind", "status", "event"] + [dimension?.statsDimension.column].compactMap { $0 } + SQLCondition.equalities(of: filter).map(\.column))))
        return count.statement(pieces: pieces, filter: filter, dialect: dialect)
    }

    /// Per group of the view: how many app opens it is the latest view before.
    func creditedStatement(_ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue]) {
        var arguments = SQLArguments(dialect: dialect)
        let window = FunnelRow.pairingWindowMilliseconds
        let opens = LogFilter(
            since: filter.since,
            until: filter.until.map { $0 > Int64.max - window ? Int64.max : $0 + window },
            rule: filter.rule,
            site: filter.site
        )
        let openClauses = SQLCondition.clauses(of: opens, into: &arguments) + ["kind = 'app_open'", "secret IS NOT NULL"]
        let viewClauses = SQLCondition.clauses(of: filter, into: &arguments)
        let sql = """
            WITH paired AS MATERIALIZED (
                SELECT (
                    SELECT seen.id FROM hits AS seen
                    WHERE seen.secret = opened.secret
                      AND seen.ts_ms BETWEEN opened.ts_ms - \(window) AND opened.ts_ms
                      AND seen.kind = 'fallback' AND seen.status = 200
                      AND \(dialect.isNotDistinct("seen.site", "opened.site")) AND \(dialect.isNotDistinct("seen.rule", "opened.rule"))
                    ORDER BY seen.ts_ms DESC, seen.id DESC
                    LIMIT 1
                ) AS view_id
                FROM hits AS opened\(SQLCondition.whereClause(openClauses))
            )
            SELECT \(keyExpression()) AS key, COUNT(*) AS opens
            FROM paired JOIN hits ON hits.id = paired.view_id\(SQLCondition.whereClause(viewClauses))
            GROUP BY 1
            """
        return (sql, arguments.values)
    }

    /// The funnel rows from the counted groups and the credited opens per group: busiest first (ties
    /// by key), or by date for `day`, at most the limit; one row of zeros when ungrouped and empty.
    func rows(counted: [(key: SQLValue, counts: [Int])], credited: [SQLValue: Int]) -> [FunnelRow] {
        let keyOrder = dimension?.statsDimension ?? .kind
        let sorted = counted.sorted { left, right in
            if dimension != .day, left.counts[0] != right.counts[0] { return left.counts[0] > right.counts[0] }
            return keyOrder.keyPrecedes(left.key, right.key)
        }
        var rows = sorted.prefix(limit ?? Int.max).map { group in
            FunnelRow(
                key: dimension.flatMap { $0.statsDimension.key(from: group.key) }, views: group.counts[0], openClicks: group.counts[1],
                storeClicks: group.counts[2], copies: group.counts[3], appOpens: group.counts[4], opensAfterView: credited[group.key] ?? 0)
        }
        if dimension == nil, rows.isEmpty {
            rows.append(FunnelRow(key: nil, views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0))
        }
        return rows
    }
}
