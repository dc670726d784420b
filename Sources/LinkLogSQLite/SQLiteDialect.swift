import LinkLog

/// SQLite's spelling of what engines spell differently: numbered `?N` parameters, and `IS` as
/// NULL-safe equality (which, unlike `IS NOT DISTINCT FROM` before SQLite 3.39, every SQLite reads).
public struct SQLiteDialect: SQLDialect {
    public init() {}

    public func placeholder(_ number: Int) -> String {
        "?\(number)"
    }

    public func isNotDistinct(_ left: String, _ right: String) -> String {
        "\(left) IS \(right)"
    }
}
