/// The one SQL statement behind `LogReader.funnel`, with its parameters.
///
/// Three parts. `counted` counts views, clicks and app opens per group, the filter applying to each
/// row. `paired` finds, for every app open that carries a secret token, the latest view of the same
/// token, site and rule at most `FunnelRow.pairingWindowMilliseconds` before it: a correlated
/// subquery that walks `hits_secret_time` backwards from the open's time and stops at the first
/// view; it is `MATERIALIZED` so each open's view is found once (folded into `credited`, a filter on
/// the view can make SQLite run the subquery for every pair of view and open). `credited` looks each
/// open's view up by id and groups by the view's row, the filter applying to the view. The
/// opens scanned are narrowed by the filter's time, site and rule only as far as that cannot change
/// the answer (a paired open shares the view's site and rule and comes at most the window after it).
struct FunnelQuery {
    let sql: String
    private let conditions: [SQLCondition]
    private let limit: Int?

    /// What a row must be to count in any column of `counted`.
    private static let countedRows = [
        "kind IN ('fallback', 'event', 'app_open')",
        "(kind <> 'fallback' OR status = 200)",
        "(kind <> 'event' OR event IN ('open-app', 'store', 'copy'))",
    ]

    /// The funnel grouped by `dimension` (one group when `nil`) over `filter`. The filter's `kind` is
    /// ignored: the funnel's columns are fixed kinds. Its `limit` caps the number of groups.
    init(dimension: FunnelDimension?, filter: LogFilter) {
        var rows = filter
        rows.kind = nil
        rows.limit = nil
        let window = FunnelRow.pairingWindowMilliseconds
        let opens = LogFilter(
            since: rows.since,
            until: rows.until.map { $0 > Int64.max - window ? Int64.max : $0 + window },
            rule: rows.rule,
            site: rows.site
        )
        let counted = SQLCondition(rows)
        let paired = SQLCondition(opens)
        let credited = SQLCondition(rows)
        conditions = [counted, paired, credited]
        limit = filter.limit

        let key = dimension?.statsDimension.keyExpression ?? "NULL"
        let ordering = dimension == .day ? "counted.key ASC" : "counted.views DESC, counted.key ASC"
        sql = """
            WITH counted AS (
                SELECT \(key) AS key,
                       SUM(kind = 'fallback') AS views,
                       SUM(kind = 'event' AND event = 'open-app') AS open_clicks,
                       SUM(kind = 'event' AND event = 'store') AS store_clicks,
                       SUM(kind = 'event' AND event = 'copy') AS copies,
                       SUM(kind = 'app_open') AS app_opens
                FROM hits\(counted.sql(adding: Self.countedRows))
                GROUP BY 1
            ),
            paired AS MATERIALIZED (
                SELECT (
                    SELECT seen.id FROM hits AS seen
                    WHERE seen.secret = opened.secret
                      AND seen.ts_ms BETWEEN opened.ts_ms - \(window) AND opened.ts_ms
                      AND seen.kind = 'fallback' AND seen.status = 200
                      AND seen.site IS opened.site AND seen.rule IS opened.rule
                    ORDER BY seen.ts_ms DESC, seen.id DESC
                    LIMIT 1
                ) AS view_id
                FROM hits AS opened\(paired.sql(adding: ["kind = 'app_open'", "secret IS NOT NULL"]))
            ),
            credited AS (
                SELECT \(key) AS key, COUNT(*) AS opens
                FROM paired JOIN hits ON hits.id = paired.view_id\(credited.sql)
                GROUP BY 1
            )
            SELECT counted.key, counted.views, counted.open_clicks, counted.store_clicks, counted.copies, counted.app_opens,
                   COALESCE(credited.opens, 0)
            FROM counted LEFT JOIN credited ON credited.key IS counted.key
            ORDER BY \(ordering)
            """ + (filter.limit == nil ? "" : "\nLIMIT ?")
    }

    /// Binds every condition's values, then the limit, in the order they appear in `sql`.
    func bind(to statement: SQLiteStatement) throws {
        var next = 1
        for condition in conditions { next = try condition.bind(to: statement, from: next) }
        if let limit { try statement.bind(integer: Int64(limit), at: next) }
    }
}
