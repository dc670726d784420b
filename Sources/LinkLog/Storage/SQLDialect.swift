/// How a database engine spells the few things the log's SQL needs that SQL engines spell
/// differently. Everything else the log writes is SQL both SQLite and PostgreSQL read the same way.
public protocol SQLDialect: Sendable {
    /// The text of parameter number `number` (from 1): `?1` or `$1`.
    func placeholder(_ number: Int) -> String

    /// A condition that is true when `left` and `right` are equal or both NULL.
    func isNotDistinct(_ left: String, _ right: String) -> String

    /// `outer` joined to the rows of `table` (aliased `alias`, reading `columns`) that meet
    /// `condition`, looked up once for each row of `outer` (a nested loop, each lookup through an
    /// index on the condition): for joins whose outer side is a few rows picked by time and whose
    /// inner side is found by an index over the whole log.
    func lookupJoin(_ outer: String, _ table: String, as alias: String, columns: [String], on condition: String) -> String

    /// A condition that `column` (of `type`) is one of the values bound at `placeholder` as one
    /// parameter (`listValue`): a statement whose text does not grow with the values. The writer
    /// looks up each batch's ids and view tokens; an `IN` list of a parameter per value was parsed,
    /// and its terms compared with one another, for every batch (a third of what a person's page
    /// view cost the SQLite writer).
    func isOneOf(_ column: String, _ type: SQLListType, _ placeholder: String) -> String

    /// `values` as the one parameter `isOneOf` reads.
    func listValue(_ values: [SQLValue]) -> SQLValue

    /// Whether the log finds a code's views through chains (`view_chain` and the SQL function
    /// `linkhost_view_of_code`) rather than an index keyed by the code: SQLite's.
    var findsViewsByCodeThroughChains: Bool { get }
}

/// The type of the values of `SQLDialect.isOneOf`.
public enum SQLListType: Sendable {
    case integer
    case text
}

/// The parameters of one statement being built: each value added gets the next placeholder in the
/// dialect's spelling, so SQL text and values can never get out of order.
struct SQLArguments {
    let dialect: any SQLDialect
    private(set) var values: [SQLValue] = []

    init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    /// Adds `value` and returns the placeholder to write where it goes.
    mutating func add(_ value: SQLValue) -> String {
        values.append(value)
        return dialect.placeholder(values.count)
    }
}
