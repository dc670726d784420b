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
        clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
    }

    /// Binds the arguments to parameters 1, 2, …; returns the next free parameter number.
    func bind(to statement: SQLiteStatement) throws -> Int {
        for (offset, argument) in arguments.enumerated() {
            switch argument {
            case .text(let text): try statement.bind(text: text, at: offset + 1)
            case .integer(let integer): try statement.bind(integer: integer, at: offset + 1)
            }
        }
        return arguments.count + 1
    }

    private mutating func add(_ clause: String, _ argument: Argument) {
        clauses.append(clause)
        arguments.append(argument)
    }
}
