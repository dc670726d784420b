extension LogReader {
    /// The distinct links used from `since` (inclusive) to `until` (exclusive, `nil` for now): page
    /// views and app opens grouped by site, host, path, query and rule, most used first. Rows logged
    /// before the log kept queries are marked `isBeforeQueries`.
    ///
    /// One `GROUP BY` over the window's rows, found through the time index, rather than a rollup of
    /// distinct links kept by the writer: the check runs by hand or at a reload, not per request,
    /// while a rollup would cost the writer an index update per distinct link on every batch for an
    /// answer asked for rarely. The engine aggregates as it reads; only the groups come back, and
    /// links are few (a site's links repeat) even when rows are many.
    public func links(since: Int64, until: Int64?) throws -> [LoggedLink] {
        var arguments = SQLArguments(dialect: connection.dialect)
        let mark = try connection.queryInteger(
            "SELECT value FROM meta WHERE key = \(arguments.add(.text(HitTable.queriesKeptAfterIDKey)))", arguments.values)
        arguments = SQLArguments(dialect: connection.dialect)
        let old = mark.map { "CASE WHEN id <= \(arguments.add(.integer($0))) THEN 1 ELSE 0 END" } ?? "0"
        var clauses = SQLCondition.timeClauses(since: since, until: until, column: "ts_ms", into: &arguments)
        clauses.append("kind IN (\(LoggedLink.kinds.map { arguments.add(.text($0)) }.joined(separator: ", ")))")
        let sql =
            "SELECT site, host, path, query, rule, \(old) AS old, COUNT(*) FROM hits\(SQLCondition.whereClause(clauses)) "
            + "GROUP BY site, host, path, query, rule, old"
        var links: [LoggedLink] = []
        try connection.query(sql, arguments.values) { row in
            links.append(
                LoggedLink(
                    siteID: row[0].text, host: row[1].text ?? "", path: row[2].text ?? "", query: row[3].text, isBeforeQueries: row[5].integer == 1,
                    rule: row[4].text, hits: Int(row[6].integer ?? 0)))
        }
        return links.sorted { ($1.hits, $0.host, $0.path, $0.query ?? "") < ($0.hits, $1.host, $1.path, $1.query ?? "") }
    }

    /// How many rows the log holds, of any kind and time (to tell an empty log from a quiet window).
    public func totalRowCount() throws -> Int {
        Int(try connection.queryInteger("SELECT COUNT(*) FROM hits") ?? 0)
    }
}
