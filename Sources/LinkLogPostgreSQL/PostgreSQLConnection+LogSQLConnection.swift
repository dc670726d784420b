import LinkLog

extension PostgreSQLConnection: LogSQLConnection {
    public var dialect: any SQLDialect { PostgreSQLDialect() }

    /// Through `COPY` (`copyRows`): a rebuild's rollup rows in one stream per table.
    public func insertRows(into table: String, columns: [String], rows: [[SQLValue]]) throws {
        try copyRows(into: table, columns: columns, rows: rows)
    }

    /// `ANALYZE`: a sample of the table (30,000 rows at the default statistics target), a second or
    /// two on 10 million rows.
    public func refreshStatistics(of table: String) throws {
        try execute("ANALYZE \(table)")
    }

    public func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(body)
    }
}

/// PostgreSQL's spelling of what engines spell differently: numbered `$N` parameters, and
/// `IS NOT DISTINCT FROM` as NULL-safe equality.
public struct PostgreSQLDialect: SQLDialect {
    public init() {}

    /// PostgreSQL keeps its index of views by code: its buffer manager, not the writer's thread, pays
    /// for the random leaf.
    public var findsViewsByCodeThroughChains: Bool { false }

    public func placeholder(_ number: Int) -> String {
        "$\(number)"
    }

    public func isNotDistinct(_ left: String, _ right: String) -> String {
        "\(left) IS NOT DISTINCT FROM \(right)"
    }

    /// A `LATERAL` subquery kept from being flattened into a plain join (`OFFSET 0`): as a join,
    /// the planner merge-joined the views of a cut hour with the whole `hits_view` index, reading
    /// every open paired before them (50 ms on 10 million rows, against a lookup per view).
    public func lookupJoin(_ outer: String, _ table: String, as alias: String, columns: [String], on condition: String) -> String {
        "\(outer) CROSS JOIN LATERAL (SELECT \(columns.map { "\(alias).\($0)" }.joined(separator: ", ")) FROM \(table) AS \(alias) WHERE \(condition) OFFSET 0) AS \(alias)"
    }

    /// `= ANY` of an array parameter.
    public func isOneOf(_ column: String, _ type: SQLListType, _ placeholder: String) -> String {
        "\(column) = ANY(CAST(\(placeholder) AS \(type == .integer ? "bigint[]" : "text[]")))"
    }

    /// The values as an array literal (`PostgreSQLConnection.arrayLiteral`).
    public func listValue(_ values: [SQLValue]) -> SQLValue {
        .text(PostgreSQLConnection.arrayLiteral(values))
    }
}
