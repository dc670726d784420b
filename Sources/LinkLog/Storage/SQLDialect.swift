/// How a database engine spells the few things the log's SQL needs that SQL engines spell
/// differently. Everything else the log writes is SQL both SQLite and PostgreSQL read the same way.
public protocol SQLDialect: Sendable {
    /// The text of parameter number `number` (from 1): `?1` or `$1`.
    func placeholder(_ number: Int) -> String

    /// A condition that is true when `left` and `right` are equal or both NULL.
    func isNotDistinct(_ left: String, _ right: String) -> String
}
