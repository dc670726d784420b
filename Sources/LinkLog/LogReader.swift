import Glibc

/// Queries the hit log, on a connection of its own so it works while the server writes (WAL lets
/// readers and the writer proceed together). Not `Sendable`: one reader per thread, like its connection.
public final class LogReader {
    private let connection: SQLiteConnection

    /// The database being read.
    public var databasePath: String { connection.path }

    /// Opens an existing log. Never creates one (`LogError.databaseMissing`); brings a log written by
    /// an older linkhost up to the current schema first (the only write it makes), then refuses writes.
    public init(databasePath: String, busyTimeout: Duration = .seconds(5)) throws {
        guard access(databasePath, F_OK) == 0 else { throw LogError.databaseMissing(path: databasePath) }
        connection = try SQLiteConnection(path: databasePath, flags: [.readWrite])
        try connection.setBusyTimeout(busyTimeout)
        try LogSchema.migrate(connection)
        try connection.execute("PRAGMA query_only = ON")
    }

    /// The matching hits, newest first.
    public func rows(_ filter: LogFilter = LogFilter()) throws -> [LogRow] {
        let condition = SQLCondition(filter)
        var sql = "SELECT \(LogSchema.selectHitColumns) FROM hits\(condition.sql) ORDER BY ts_ms DESC, id DESC"
        if filter.limit != nil { sql += " LIMIT ?" }
        let statement = try connection.prepare(sql)
        let next = try condition.bind(to: statement)
        if let limit = filter.limit { try statement.bind(integer: Int64(limit), at: next) }
        var rows: [LogRow] = []
        while try statement.step() { rows.append(LogRow(statement)) }
        return rows
    }

    /// How many hits match (the filter's limit is ignored).
    public func count(_ filter: LogFilter = LogFilter()) throws -> Int {
        let condition = SQLCondition(filter)
        let statement = try connection.prepare("SELECT COUNT(*) FROM hits\(condition.sql)")
        _ = try condition.bind(to: statement)
        _ = try statement.step()
        return Int(statement.int64(at: 0))
    }

    /// Matching hits counted per `dimension`: busiest first (ties by key), or by date for `day`.
    /// The filter's limit caps the number of groups.
    public func stats(by dimension: StatsDimension, _ filter: LogFilter = LogFilter()) throws -> [StatsRow] {
        let condition = SQLCondition(filter)
        var sql = "SELECT \(dimension.keyExpression) AS key, COUNT(*) AS hits FROM hits\(condition.sql) GROUP BY 1 ORDER BY \(dimension.ordering)"
        if filter.limit != nil { sql += " LIMIT ?" }
        let statement = try connection.prepare(sql)
        let next = try condition.bind(to: statement)
        if let limit = filter.limit { try statement.bind(integer: Int64(limit), at: next) }
        var rows: [StatsRow] = []
        while try statement.step() { rows.append(StatsRow(key: statement.text(at: 0), hits: Int(statement.int64(at: 1)))) }
        return rows
    }

    /// The path from a fallback page to the app, per `dimension` (one row for everything when `nil`,
    /// zeros included): views, the clicks pages reported, app opens, and the app opens that followed a
    /// view of the same invite code within 7 days, each credited to the group of the latest such view
    /// (`FunnelRow`). The filter applies to each counted row, and for `opensAfterView` to the view;
    /// its `kind` is ignored (the funnel counts fixed kinds) and its limit caps the number of groups.
    /// Busiest first (ties by key), or by date for `day`.
    public func funnel(by dimension: FunnelDimension?, _ filter: LogFilter = LogFilter()) throws -> [FunnelRow] {
        let query = FunnelQuery(dimension: dimension, filter: filter)
        let statement = try connection.prepare(query.sql)
        try query.bind(to: statement)
        var rows: [FunnelRow] = []
        func count(_ column: Int) -> Int { Int(statement.int64(at: column)) }
        while try statement.step() {
            let key = dimension == nil ? nil : statement.text(at: 0)
            rows.append(
                FunnelRow(
                    key: key, views: count(1), openClicks: count(2), storeClicks: count(3), copies: count(4), appOpens: count(5), opensAfterView: count(6)))
        }
        if dimension == nil, rows.isEmpty {
            rows.append(FunnelRow(key: nil, views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0))
        }
        return rows
    }

    /// How many records writers have refused over the log's life because their queue was full.
    public func droppedRecordCount() throws -> Int {
        let statement = try connection.prepare("SELECT value FROM meta WHERE key = ?1")
        try statement.bind(text: LogSchema.droppedRecordsKey, at: 1)
        return try statement.step() ? Int(statement.int64(at: 0)) : 0
    }
}
