/// One open connection to a log database that runs SQL written for its `dialect`: what the reader's
/// queries and the rollup rebuild are built on. Not `Sendable`: a connection belongs to one thread.
public protocol LogSQLConnection: AnyObject {
    /// How this database spells what differs between engines.
    var dialect: any SQLDialect { get }

    /// Runs a query and hands each result row to `row`, columns in select order.
    func query(_ sql: String, _ arguments: [SQLValue], _ row: ([SQLValue]) throws -> Void) throws

    /// Runs a statement that returns no rows; returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLValue]) throws -> Int

    /// Inserts `rows` (values in `columns` order) into `table` the fastest way the engine has for
    /// many rows of one shape: what a rollup rebuild writes. SQLite steps one prepared statement per
    /// row (numbered parameters make a long statement slow to compile); PostgreSQL streams them with
    /// `COPY` (one statement, where multi-row `INSERT`s are each parsed and planned).
    func insertRows(into table: String, columns: [String], rows: [[SQLValue]]) throws

    /// Brings the query planner's statistics of `table` up to date after a bulk change (a rebuild's
    /// pairing sets `view_id` on every app open). PostgreSQL plans from statistics that autovacuum
    /// refreshes only after a tenth of a table changed: left stale, they say no open is paired,
    /// and the funnel reads every paired open (seconds on 10 million rows). SQLite keeps none.
    func refreshStatistics(of table: String) throws

    /// Runs `body` in a transaction that takes the write lock at once: committed if it returns,
    /// rolled back if it throws.
    func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result
}

extension LogSQLConnection {
    /// Nothing, for an engine that plans without statistics.
    public func refreshStatistics(of table: String) throws {}

    /// The first column of the first row of `sql` as an integer; `nil` without a row or for NULL.
    public func queryInteger(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64? {
        var result: Int64?
        var first = true
        try query(sql, arguments) { row in
            if first, let value = row.first { result = value.integer }
            first = false
        }
        return result
    }
}
