/// Aligned columns for a terminal:
///
///     rule       hits
///     ---------  ----
///     addfriend     3
///
/// Two spaces between columns, numbers right-aligned, no trailing spaces, a newline after each line.
/// When the table is wider than `width`, columns are narrowed in the order of their `giveWay`
/// (free text such as user agents first, short identifying fields such as kinds late), the widest
/// first within a class, down to their header's width; cells are cut with `…`. Headers are cut, and
/// numbers and timestamps narrowed, only when nothing else is left to narrow; every line fits unless
/// `width` is below one character per column plus the gaps.
/// Control characters in cells (a hostile user agent could carry terminal escapes) print as `�`.
/// Widths count characters, so wide East Asian characters may overhang.
public struct TableFormatter: Sendable {
    /// The usual terminal width budget.
    public static let defaultWidth = 120
    /// No column gets narrower than this (unless its content is).
    static let minimumColumnWidth = 3

    /// The widest a line may be; `nil` means never truncate.
    public var width: Int?

    /// A formatter for lines of at most `width` characters.
    public init(width: Int? = TableFormatter.defaultWidth) {
        self.width = width
    }

    /// The table as text, ending with a newline.
    public func format(_ table: ResultTable) -> String {
        guard !table.columns.isEmpty else { return "" }
        let headers = table.columns.map { Self.printable($0.name) }
        let cells = table.rows.map { row in table.columns.indices.map { Self.printable(row.indices.contains($0) ? row[$0] ?? "" : "") } }

        var widths = headers.map(\.count)
        for row in cells {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        if let width { narrow(&widths, toFit: width, headers: headers, giveWay: table.columns.map(\.giveWay)) }

        var lines: [String] = []
        lines.append(line(headers, widths: widths, numeric: table.columns.map(\.isNumeric)))
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for row in cells {
            lines.append(line(row, widths: widths, numeric: table.columns.map(\.isNumeric)))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Shrinks columns one character at a time until the line fits, in ever more drastic steps: each
    /// give-way class in turn (widest column first) down to its header; then those same columns to
    /// `minimumColumnWidth`; then every column to that; then every column to a single character.
    private func narrow(_ widths: inout [Int], toFit width: Int, headers: [String], giveWay: [ResultTable.GiveWay]) {
        let separators = 2 * (widths.count - 1)
        var steps: [(columns: (Int) -> Bool, floor: (Int) -> Int)] = []
        for level in ResultTable.GiveWay.allCases where level != .never {
            steps.append(({ giveWay[$0] <= level }, { max(headers[$0].count, Self.minimumColumnWidth) }))
        }
        steps.append(({ giveWay[$0] != .never }, { _ in Self.minimumColumnWidth }))
        steps.append(({ _ in true }, { _ in Self.minimumColumnWidth }))
        steps.append(({ _ in true }, { _ in 1 }))
        for step in steps {
            let floors = widths.indices.map { column in step.columns(column) ? min(widths[column], step.floor(column)) : widths[column] }
            while widths.reduce(separators, +) > width {
                guard let widest = widths.indices.filter({ widths[$0] > floors[$0] }).max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
            }
        }
    }

    private func line(_ cells: [String], widths: [Int], numeric: [Bool]) -> String {
        var parts: [String] = []
        for (column, cell) in cells.enumerated() {
            let fitted = Self.truncated(cell, to: widths[column])
            let padding = String(repeating: " ", count: widths[column] - fitted.count)
            parts.append(numeric[column] ? padding + fitted : fitted + padding)
        }
        var text = parts.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text
    }

    static func truncated(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        return String(text.prefix(width - 1)) + "…"
    }

    /// `text` with control characters replaced, so a cell can neither break a line nor drive the terminal.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { result.append(isControl(scalar) ? "\u{FFFD}" : scalar) }
        return String(result)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
