/// A grouped count over the pieces of a time range (`RollupPlan`): one `SELECT … GROUP BY` per piece
/// on its table, summed per group across the pieces. Each piece filters on the columns the hits and
/// the rollup tables share, and on its own time column (`ts_ms` or `bucket_ms`).
struct CountStatement {
    /// The grouping: a key expression for a time column (`StatsDimension.keyExpression`).
    let key: (_ timeColumn: String) -> String
    /// The count columns: each an aggregate of `counting`, which is `1` on the hits and the rollup's
    /// count column on a rollup table; and the name each is given.
    let counts: [(name: String, aggregate: (_ counting: String) -> String)]
    /// Conditions without parameters that every counted row must meet, on shared columns.
    let fixedClauses: [String]
    /// The rollup table a piece of each grain reads (one that has every column used).
    let rollupTable: (RollupGrain) -> String
    /// What the pieces cut from the raw rows read: the hit table, or a query naming its result `hits`.
    var hitsSource = "hits"
    /// What a piece cut from the raw rows sums: `1` per hit, or a column of `hitsSource`.
    var hitsCounting = "1"

    /// The statement over `pieces` with `filter`'s equalities; `nil` when there is nothing to count.
    func statement(pieces: [CountPiece], filter: LogFilter, dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue])? {
        guard !pieces.isEmpty else { return nil }
        var arguments = SQLArguments(dialect: dialect)
        let selects = pieces.map { piece -> String in
            let table: String
            let timeColumn: String
            let counting: String
            switch piece.source {
            case .hits: (table, timeColumn, counting) = (hitsSource, "ts_ms", hitsCounting)
            case .rollup(let grain): (table, timeColumn, counting) = (rollupTable(grain), RollupTable.bucketColumn, RollupTable.countColumn)
            }
            let clauses =
                SQLCondition.timeClauses(since: piece.since, until: piece.until, column: timeColumn, into: &arguments)
                + SQLCondition.equalityClauses(of: filter, into: &arguments) + fixedClauses
            let columns = counts.map { "\($0.aggregate(counting)) AS \($0.name)" }.joined(separator: ", ")
            return "SELECT \(key(timeColumn)) AS key, \(columns) FROM \(table)\(SQLCondition.whereClause(clauses)) GROUP BY 1"
        }
        guard selects.count > 1 else { return (selects[0], arguments.values) }
        let sums = counts.map { "SUM(\($0.name))" }.joined(separator: ", ")
        return ("SELECT key, \(sums) FROM (\(selects.joined(separator: " UNION ALL "))) AS pieces GROUP BY key", arguments.values)
    }
}
