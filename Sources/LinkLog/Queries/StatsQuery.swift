/// The statement behind `LogReader.stats`, and the ordering of its groups. With rollups, whole
/// days and hours are counted from the rollup tables and only the cut hours at the ends of the range
/// from the hits (`RollupPlan`); the answer is the same either way. Groups are sorted and cut to the
/// filter's limit here rather than in SQL, so every engine orders them alike
/// (`StatsDimension.keyPrecedes`).
struct StatsQuery {
    let dimension: StatsDimension
    let filter: LogFilter
    let pieces: [CountPiece]

    init(dimension: StatsDimension, filter: LogFilter, usesRollups: Bool) {
        self.dimension = dimension
        self.filter = filter
        pieces =
            usesRollups && dimension.isRolledUp
            ? RollupPlan.pieces(since: filter.since, until: filter.until) : [CountPiece(source: .hits, since: filter.since, until: filter.until)]
    }

    /// `SELECT key, count`, one row per group; `nil` for an empty time range.
    func statement(_ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue])? {
        let dimension = dimension
        let family = RollupTableSet.narrowest(containing: Set([dimension.column].compactMap { $0 } + SQLCondition.equalities(of: filter).map(\.column)))
        let count = CountStatement(
            key: { dimension.keyExpression(timeColumn: $0) },
            // SUM(1) on the hits, so both kinds of piece read alike; a group is never empty.
            counts: [("hits", { "SUM(\($0))" })],
            fixedClauses: [],
            rollupTable: family.table)
        return count.statement(pieces: pieces, filter: filter, dialect: dialect)
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

/// One group of `LogReader.stats`: a key (a rule name, a campaign, a day, …) and its hit count.
public struct StatsRow: Sendable, Equatable {
    /// The group's value; `nil` for hits without one (no rule, no campaign), shown as `(none)`.
    public var key: String?
    /// How many hits the group has.
    public var hits: Int

    /// A group and its count.
    public init(key: String?, hits: Int) {
        self.key = key
        self.hits = hits
    }

    /// What a missing key is shown as.
    public static let noneKey = "(none)"
}
