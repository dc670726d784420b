/// The statement behind `LogReader.stats`, and the ordering of its groups. Groups are sorted and
/// cut to the filter's limit here rather than in SQL, so every engine orders them alike
/// (`StatsDimension.keyPrecedes`).
struct StatsQuery {
    let dimension: StatsDimension
    let filter: LogFilter

    /// `SELECT key, count` over the filtered hits, one row per group.
    func statement(_ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue]) {
        var arguments = SQLArguments(dialect: dialect)
        let clauses = SQLCondition.clauses(of: filter, into: &arguments)
        let sql = "SELECT \(dimension.keyExpression()) AS key, COUNT(*) AS hits FROM hits\(SQLCondition.whereClause(clauses)) GROUP BY 1"
        return (sql, arguments.values)
    }

    /// The groups busiest first (ties by key), or by date for `day`, at most the filter's limit.
    func rows(from groups: [(key: SQLValue, hits: Int)]) -> [StatsRow] {
        let sorted = groups.sorted { left, right in
            if dimension != .day, left.hits != right.hits { return left.hits > right.hits }
            return dimension.keyPrecedes(left.key, right.key)
        }
        return sorted.prefix(filter.limit ?? Int.max).map { StatsRow(key: dimension.key(from: $0.key), hits: $0.hits) }
    }
}
