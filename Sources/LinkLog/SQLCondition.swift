/// A WHERE clause with its parameters, built from a `LogFilter`. Values are always bound, never
/// spliced into the SQL, since they come from the command line.
struct SQLCondition {
    enum Argument {
        case text(String)
        case integer(Int64)
    }

    private(set) var clauses: [String] = []
    private(set) var arguments: [Argument] = []

    init(_ filter: LogFilter) {
        if let since = filter.since { add("ts_ms >= ?", .integer(since)) }
        if let until = filter.until { add("ts_ms < ?", .integer(until)) }
        let equalities: [(column: String, value: String?)] = [
            ("host", filter.host), ("rule", filter.rule), ("kind", filter.kind), ("site", filter.site),
            ("utm_source", filter.utmSource), ("utm_medium", filter.utmMedium), ("utm_campaign", filter.utmCampaign),
            ("client_class", filter.clientClass),
        ]
        for (column, value) in equalities {
            if let value { add("\(column) = ?", .text(value)) }
        }
    }

    /// `" WHERE a AND b"`, or "" when nothing is filtered.
    var sql: String {
        sql(adding: [])
    }

    /// The WHERE clause with `fixed` clauses (SQL without parameters) after the filter's own.
    func sql(adding fixed: [String]) -> String {
        let all = clauses + fixed
        return all.isEmpty ? "" : " WHERE " + all.joined(separator: " AND ")
    }

    /// Binds the arguments to parameters `first`, `first + 1`, …; returns the next free parameter
    /// number, so several conditions can fill one statement in the order they appear in it.
    func bind(to statement: SQLiteStatement, from first: Int = 1) throws -> Int {
        for (offset, argument) in arguments.enumerated() {
            switch argument {
            case .text(let text): try statement.bind(text: text, at: first + offset)
            case .integer(let integer): try statement.bind(integer: integer, at: first + offset)
            }
        }
        return first + arguments.count
    }

    private mutating func add(_ clause: String, _ argument: Argument) {
        clauses.append(clause)
        arguments.append(argument)
    }
}
