import OrderedJSON

/// One JSON array holding one object per row, each on its own line, keys in column order:
///
///     [
///       {"rule":"addfriend","hits":3},
///       {"rule":"(none)","hits":1}
///     ]
///
/// An empty result is `[]`. NULL is `null`; cells of numeric columns are bare numbers, integers or
/// decimals such as `0.125` (text that is not a JSON number stays a string, so the output is always
/// valid JSON). Ends with a newline.
public struct JSONFormatter: Sendable {
    public init() {}

    /// The table as one JSON array, ending with a newline.
    public func format(_ table: ResultTable) -> String {
        guard !table.rows.isEmpty else { return "[]\n" }
        let objects = table.rows.map { "  " + object($0, columns: table.columns) }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    /// One row as a compact JSON object, keys in column order: an element of `format`'s array, or a
    /// line of NDJSON.
    public func object(_ row: [String?], columns: [ResultTable.Column]) -> String {
        let members = columns.indices.map { column -> JSONMember in
            let cell = row.indices.contains(column) ? row[column] : nil
            return JSONMember(columns[column].name, value(cell, numeric: columns[column].isNumeric))
        }
        return JSONValue.object(members).jsonText(.compact)
    }

    private func value(_ cell: String?, numeric: Bool) -> JSONValue {
        guard let cell else { return .null }
        guard numeric else { return .string(cell) }
        if let integer = Int(cell) { return .number(JSONNumber(integer)) }
        // The parser is the one place that checks number syntax; anything else stays text.
        if case .number(let number)? = try? JSONParser().parse(cell) { return .number(number) }
        return .string(cell)
    }
}
