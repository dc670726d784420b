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

    /// How many records writers have refused over the log's life because their queue was full.
    public func droppedRecordCount() throws -> Int {
        let statement = try connection.prepare("SELECT value FROM meta WHERE key = ?1")
        try statement.bind(text: LogSchema.droppedRecordsKey, at: 1)
        return try statement.step() ? Int(statement.int64(at: 0)) : 0
    }
}
