/// The WHERE clauses a `LogFilter` asks for. Values are always bound, never spliced into the SQL,
/// since they come from the command line. The clauses name only columns that the hits table and the
/// rollup tables share, so one filter reads the same on both; the time bounds are separate
/// (`timeClauses`) because the two kinds of table keep time in different columns.
struct SQLCondition {
    /// The column each equality filter compares, with its value.
    static func equalities(of filter: LogFilter) -> [(column: String, value: String)] {
        let all: [(String, String?)] = [
            ("host", filter.host), ("rule", filter.rule), ("kind", filter.kind), ("site", filter.site),
            ("utm_source", filter.utmSource), ("utm_medium", filter.utmMedium), ("utm_campaign", filter.utmCampaign),
            ("client_class", filter.clientClass),
        ]
        return all.compactMap { column, value in value.map { (column, $0) } }
    }

    /// `column = ?` for each equality of `filter`, `column` prefixed with `table.` when given.
    static func equalityClauses(of filter: LogFilter, table: String? = nil, into arguments: inout SQLArguments) -> [String] {
        let prefix = table.map { $0 + "." } ?? ""
        return equalities(of: filter).map { column, value in "\(prefix)\(column) = \(arguments.add(.text(value)))" }
    }

    /// `column >= since` and `column < until` for the bounds that are set.
    static func timeClauses(since: Int64?, until: Int64?, column: String, into arguments: inout SQLArguments) -> [String] {
        var clauses: [String] = []
        if let since { clauses.append("\(column) >= \(arguments.add(.integer(since)))") }
        if let until { clauses.append("\(column) < \(arguments.add(.integer(until)))") }
        return clauses
    }

    /// Every clause of `filter` on the hits table (time first, then equalities, then the cursor).
    static func clauses(of filter: LogFilter, table: String? = nil, into arguments: inout SQLArguments) -> [String] {
        let prefix = table.map { $0 + "." } ?? ""
        var clauses =
            timeClauses(since: filter.since, until: filter.until, column: prefix + "ts_ms", into: &arguments)
            + equalityClauses(of: filter, table: table, into: &arguments)
        if let before = filter.before {
            // Spelled out rather than as a row value, which not every engine compares the same way.
            let time = arguments.add(.integer(before.timestampMilliseconds))
            let sameTime = arguments.add(.integer(before.timestampMilliseconds))
            let id = arguments.add(.integer(before.id))
            clauses.append("(\(prefix)ts_ms < \(time) OR (\(prefix)ts_ms = \(sameTime) AND \(prefix)id < \(id)))")
        }
        return clauses
    }

    /// `" WHERE a AND b"`, or "" for no clauses.
    static func whereClause(_ clauses: [String]) -> String {
        clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
    }
}
