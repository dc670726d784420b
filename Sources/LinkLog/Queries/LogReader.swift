/// Queries the hit log, on a connection of its own so it works while the server writes. Works on any
/// `LogDatabase`: it builds its SQL for the connection's dialect and orders results itself. Not
/// `Sendable`: one reader per thread, like its connection.
///
/// Statistics and the funnel's counts read whole days and hours from the rollup tables the writer
/// keeps in step with the hits, and only the cut hours at the ends of a `since`/`until` range from
/// the hits themselves; the answer is the same as counting the hits (`usesRollups: false` does that).
public final class LogReader {
    let connection: any LogSQLConnection

    /// The database being read, as `LogDatabase.displayName` shows it.
    public let databaseName: String

    /// Whether counts read the rollup tables (the default) or only the hits.
    public let usesRollups: Bool

    /// Opens `database` for reading. Never creates a database (`LogError.databaseMissing`); brings
    /// one written by an older linkhost up to the current schema first (the only write it makes).
    public convenience init(database: any LogDatabase, usesRollups: Bool = true) throws {
        try self.init(connection: database.openConnection(readOnly: true), databaseName: database.displayName, usesRollups: usesRollups)
    }

    /// A reader on a connection that is already open.
    public init(connection: any LogSQLConnection, databaseName: String, usesRollups: Bool = true) {
        self.connection = connection
        self.databaseName = databaseName
        self.usesRollups = usesRollups
    }

    /// The matching hits, newest first.
    ///
    /// With a limit and a filter on a column the rollups keep, the hourly rollup first says which
    /// hour holds the newest matching hit and from which hour on there are enough of them, so the
    /// hits are read between the two only (and not at all when no hour holds one): the hits table has
    /// no per-column indexes (the writer is cheaper without them), and a value not seen lately would
    /// otherwise mean reading the log backwards until it turns up.
    public func rows(_ filter: LogFilter = LogFilter()) throws -> [LogRow] {
        var filter = filter
        // Every hit before the cursor is at or before its time: the rollup narrowing below may use that.
        if let before = filter.before, before.timestampMilliseconds < Int64.max {
            filter.until = min(filter.until ?? Int64.max, before.timestampMilliseconds + 1)
        }
        if usesRollups, let limit = filter.limit, !SQLCondition.equalities(of: filter).isEmpty {
            guard let newest = try newestHourHolding(filter) else { return [] }
            let end = newest + RollupGrain.hour.milliseconds
            filter.until = min(filter.until ?? end, end)
            if let start = try newestWholeHours(holding: limit, filter) { filter.since = max(filter.since ?? start, start) }
        }
        var arguments = SQLArguments(dialect: connection.dialect)
        let clauses = SQLCondition.clauses(of: filter, into: &arguments)
        var sql = "SELECT \(HitTable.rowSelectList) FROM hits\(SQLCondition.whereClause(clauses)) ORDER BY ts_ms DESC, id DESC"
        if let limit = filter.limit { sql += " LIMIT \(arguments.add(.integer(Int64(limit))))" }
        var rows: [LogRow] = []
        try connection.query(sql, arguments.values) { rows.append(LogRow($0)) }
        return rows
    }

    /// The start of the newest hour touching the filter's time range that holds a hit matching its
    /// other fields; `nil` when none does.
    private func newestHourHolding(_ filter: LogFilter) throws -> Int64? {
        var arguments = SQLArguments(dialect: connection.dialect)
        let hour = RollupGrain.hour
        let table = RollupTableSet.narrowest(containing: Set(SQLCondition.equalities(of: filter).map(\.column))).table(hour)
        let clauses =
            SQLCondition.timeClauses(since: filter.since.map(hour.bucketStart), until: filter.until, column: RollupTable.bucketColumn, into: &arguments)
            + SQLCondition.equalityClauses(of: filter, into: &arguments)
        let sql =
            "SELECT \(RollupTable.bucketColumn) FROM \(table)\(SQLCondition.whereClause(clauses)) ORDER BY \(RollupTable.bucketColumn) DESC LIMIT 1"
        return try connection.queryInteger(sql, arguments.values)
    }

    /// The start of the oldest of the newest whole hours inside the filter's time range that together
    /// hold at least `count` matching hits; `nil` when those hours hold fewer (then every hour must be
    /// read). Every rollup row counts at least one hit, so `count` rows of the hourly rollup, newest
    /// first, are enough. Only whole hours count: a cut hour's row may count hits outside the range.
    private func newestWholeHours(holding count: Int, _ filter: LogFilter) throws -> Int64? {
        let hour = RollupGrain.hour
        let table = RollupTableSet.narrowest(containing: Set(SQLCondition.equalities(of: filter).map(\.column))).table(hour)
        let first = filter.since.flatMap(hour.firstBucketStart(atOrAfter:))
        if filter.since != nil, first == nil { return nil }
        var arguments = SQLArguments(dialect: connection.dialect)
        let clauses =
            SQLCondition.timeClauses(since: first, until: filter.until.map(hour.bucketStart), column: RollupTable.bucketColumn, into: &arguments)
            + SQLCondition.equalityClauses(of: filter, into: &arguments)
        let newest =
            "SELECT \(RollupTable.bucketColumn) FROM \(table)\(SQLCondition.whereClause(clauses)) ORDER BY \(RollupTable.bucketColumn) DESC LIMIT \(arguments.add(.integer(Int64(count))))"
        var buckets: [Int64] = []
        try connection.query(newest, arguments.values) { row in buckets.append(row[0].integer ?? 0) }
        return buckets.count == count ? buckets.last : nil
    }

    /// How many hits match (the filter's limit is ignored).
    public func count(_ filter: LogFilter = LogFilter()) throws -> Int {
        var arguments = SQLArguments(dialect: connection.dialect)
        let clauses = SQLCondition.clauses(of: filter, into: &arguments)
        return Int(try connection.queryInteger("SELECT COUNT(*) FROM hits\(SQLCondition.whereClause(clauses))", arguments.values) ?? 0)
    }

    /// Matching hits counted per `dimension`: busiest first (ties by key), or by date for `day`.
    /// The filter's limit caps the number of groups.
    public func stats(by dimension: StatsDimension, _ filter: LogFilter = LogFilter()) throws -> [StatsRow] {
        let query = StatsQuery(dimension: dimension, filter: filter, usesRollups: usesRollups)
        var groups: [(key: SQLValue, hits: Int)] = []
        if let (sql, arguments) = query.statement(connection.dialect) {
            try connection.query(sql, arguments) { row in groups.append((row[0], Int(row[1].integer ?? 0))) }
        }
        return query.rows(from: groups)
    }

    /// The path from a fallback page to the app, per `dimension` (one row for everything when `nil`,
    /// zeros included): views, the clicks pages reported, app opens, and the app opens that followed a
    /// view of the same invite code within 7 days, each credited to the group of the latest such view
    /// (`FunnelRow`). The filter applies to each counted row, and for `opensAfterView` to the view;
    /// its `kind` is ignored (the funnel counts fixed kinds) and its limit caps the number of groups.
    /// Busiest first (ties by key), or by date for `day`.
    public func funnel(by dimension: FunnelDimension?, _ filter: LogFilter = LogFilter()) throws -> [FunnelRow] {
        let query = FunnelQuery(dimension: dimension, filter: filter, usesRollups: usesRollups)
        var counted: [(key: SQLValue, counts: [Int])] = []
        if let (countedSQL, countedArguments) = query.countedStatement(connection.dialect) {
            try connection.query(countedSQL, countedArguments) { row in
                counted.append((row[0], row[1...6].map { Int($0.integer ?? 0) }))
            }
        }
        var credited: [SQLValue: [Int]] = [:]
        if let (creditedSQL, creditedArguments) = query.creditedStatement(connection.dialect) {
            try connection.query(creditedSQL, creditedArguments) { row in
                let counts = row[1...3].map { Int($0.integer ?? 0) }
                credited[row[0]] = zip(credited[row[0]] ?? [0, 0, 0], counts).map { $0 + $1 }
            }
        }
        return query.rows(counted: counted, credited: credited)
    }

    /// The last row of a log upgraded to the campaign rule and `preview_app` that `linkhost rollup`
    /// has not yet brought to them (their app opens count under their own campaigns, their previews
    /// under no app); `nil` when there is none.
    public func rebuildPendingThroughID() throws -> Int64? {
        var arguments = SQLArguments(dialect: connection.dialect)
        return try connection.queryInteger(
            "SELECT value FROM meta WHERE key = \(arguments.add(.text(HitTable.rebuildPendingThroughKey)))", arguments.values)
    }

    /// How many records writers have refused over the log's life because their queue was full.
    public func droppedRecordCount() throws -> Int {
        var arguments = SQLArguments(dialect: connection.dialect)
        let sql = "SELECT value FROM meta WHERE key = \(arguments.add(.text(HitTable.droppedRecordsKey)))"
        return Int(try connection.queryInteger(sql, arguments.values) ?? 0)
    }
}
