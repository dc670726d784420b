/// One JSON array holding one object per row, each on its own line, keys in column order:
///
///     [
///       {"rule":"addfriend","hits":3},
///       {"rule":"(none)","hits":1}
///     ]
///
/// An empty result is `[]`. NULL is `null`; cells of numeric columns are bare numbers (text that is
/// not an integer stays a string, so the output is always valid JSON). Ends with a newline.
public struct JSONFormatter: Sendable {
    public init() {}

    /// The table as one JSON array, ending with a newline.
    public func format(_ table: ResultTable) -> String {
        guard !table.rows.isEmpty else { return "[]\n" }
        let keys = table.columns.map { JSONText.quoted($0.name) + ":" }
        let objects = table.rows.map { row -> String in
            let members = table.columns.indices.map { column -> String in
                let cell = row.indices.contains(column) ? row[column] : nil
                return keys[column] + value(cell, numeric: table.columns[column].isNumeric)
            }
            return "  {" + members.joined(separator: ",") + "}"
        }
        return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
    }

    private func value(_ cell: String?, numeric: Bool) -> String {
        guard let cell else { return "null" }
        if numeric, let integer = Int64(cell) { return String(integer) }
        return JSONText.quoted(cell)
    }
}
