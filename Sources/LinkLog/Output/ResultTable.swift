/// A query result ready for output: named columns, and rows of optional text (`nil` is NULL).
/// Every formatter works from this one shape.
public struct ResultTable: Sendable, Equatable {
    /// A column: its name, whether its values are integers, and how early a table may cut its
    /// cells to fit a width.
    public struct Column: Sendable, Equatable {
        public var name: String
        public var isNumeric: Bool
        public var giveWay: GiveWay

        public init(name: String, isNumeric: Bool = false, giveWay: GiveWay? = nil) {
            self.name = name
            self.isNumeric = isNumeric
            self.giveWay = giveWay ?? (isNumeric ? .never : .normal)
        }
    }

    /// The order in which columns are narrowed when a table is too wide: every `first` column
    /// down to its header before any `normal` one, then `late`, then `last`. `never` columns (numbers, timestamps:
    /// worthless cut) shrink only when nothing else is left.
    public enum GiveWay: Int, Sendable, Comparable, CaseIterable {
        case first, normal, late, last, never

        public static func < (left: GiveWay, right: GiveWay) -> Bool { left.rawValue < right.rawValue }
    }

    /// The columns, in output order.
    public var columns: [Column]
    /// One array per row, one cell per column.
    public var rows: [[String?]]

    /// A table of any shape (for results that are neither hits nor statistics).
    public init(columns: [Column], rows: [[String?]]) {
        self.columns = columns
        self.rows = rows
    }

    /// Hits with the chosen columns (by default all but the secret token, `HitColumn.fullDefault`).
    public init(hits: [LogRow], columns: [HitColumn] = HitColumn.fullDefault) {
        self.columns = columns.map { Column(name: $0.rawValue, isNumeric: $0.isNumeric, giveWay: $0.giveWay) }
        self.rows = hits.map { row in columns.map { $0.value(in: row) } }
    }

    /// Statistics: a key column named after the dimension, then `hits`. Missing keys read `(none)`.
    public init(stats: [StatsRow], dimension: StatsDimension) {
        self.columns = [Column(name: dimension.rawValue), Column(name: "hits", isNumeric: true)]
        self.rows = stats.map { [$0.key ?? StatsRow.noneKey, String($0.hits)] }
    }
}

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
