/// CSV as RFC 4180 specifies it: a header row of column names, then one record per row, every line
/// ended by CRLF (the RFC's line break, and what spreadsheet programs expect). Fields holding a comma,
/// a double quote, CR or LF are quoted, with quotes doubled; NULL is an empty field.
/// Cells are written exactly as stored: nothing is prefixed to defuse spreadsheet formulas.
public struct CSVFormatter: Sendable {
    public init() {}

    /// The table as CSV, header first.
    public func format(_ table: ResultTable) -> String {
        var output = header(table.columns)
        for row in table.rows { output += line(row, columns: table.columns) }
        return output
    }

    /// The header record alone (for output written a row at a time).
    public func header(_ columns: [ResultTable.Column]) -> String { record(columns.map(\.name)) }

    /// One row's record, CRLF included.
    public func line(_ row: [String?], columns: [ResultTable.Column]) -> String {
        record(columns.indices.map { row.indices.contains($0) ? row[$0] ?? "" : "" })
    }

    private func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    private func field(_ text: String) -> String {
        let needsQuotes = text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
        guard needsQuotes else { return text }
        return "\"" + text.replacingQuotes() + "\""
    }
}

extension String {
    /// The text with each `"` doubled, as CSV quoting requires.
    fileprivate func replacingQuotes() -> String {
        var result = ""
        result.reserveCapacity(utf8.count + 2)
        for character in self {
            if character == "\"" { result += "\"\"" } else { result.append(character) }
        }
        return result
    }
}
