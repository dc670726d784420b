import LinkLog

/// PostgreSQL's spelling of what engines spell differently: numbered `$N` parameters, and
/// `IS NOT DISTINCT FROM` as NULL-safe equality.
public struct PostgreSQLDialect: SQLDialect {
    public init() {}

    public func placeholder(_ number: Int) -> String {
        "$\(number)"
    }

    public func isNotDistinct(_ left: String, _ right: String) -> String {
        "\(left) IS NOT DISTINCT FROM \(right)"
    }
}
