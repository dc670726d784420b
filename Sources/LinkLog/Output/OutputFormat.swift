/// How a `ResultTable` is written out. Raw values are the names the CLI accepts.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Aligned columns for a terminal (`TableFormatter`).
    case table
    /// One JSON array of objects (`JSONFormatter`).
    case json
    /// RFC 4180 CSV with CRLF line ends (`CSVFormatter`).
    case csv

    /// `table` in this format; `width` applies to `table` only (`nil`: never truncate).
    public func render(_ table: ResultTable, width: Int? = TableFormatter.defaultWidth) -> String {
        switch self {
        case .table: TableFormatter(width: width).format(table)
        case .json: JSONFormatter().format(table)
        case .csv: CSVFormatter().format(table)
        }
    }
}
