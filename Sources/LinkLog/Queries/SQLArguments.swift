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
