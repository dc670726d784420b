/// Aligned columns for a terminal:
///
///     rule       hits
///     ---------  ----
///     addfriend     3
///
/// Two spaces between columns, numbers right-aligned, no trailing spaces, a newline after each line.
/// When the table is wider than `width`, columns are narrowed in the order of their `giveWay`
/// (free text such as user agents first, short identifying fields such as kinds late), the widest
/// first within a class, down to their header's width; cells are cut with `…`.
///
/// When even that does not fit with every header keeping `readableHeader` characters (`opens…`),
/// or when cutting makes two headers alike (`open_…` for both `open_clicks` and `open_click_rate`),
/// a table would be unreadable (`ut… vi… op…`), so the rows are printed as records instead, one
/// field a line (as `psql`'s expanded display does), with a blank line between rows:
///
///     utm_campaign  launch
///     views         120
/// Control characters in cells (a hostile user agent could carry terminal escapes) print as `�`.
/// Widths count characters, so wide East Asian characters may overhang.
public struct TableFormatter: Sendable {
    /// The usual terminal width budget.
    public static let defaultWidth = 120
    /// No column gets narrower than this (unless its content is).
    static let minimumColumnWidth = 3
    /// The fewest characters of a header (its end cut with `…`) a table may show; narrower than
    /// that, rows are printed as records.
    static let readableHeader = 6

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
        if let width, !cells.isEmpty, !Self.fitsReadably(widths, headers: headers, width: width) {
            return records(headers: headers, cells: cells, width: width)
        }
        if let width {
            narrow(&widths, toFit: width, headers: headers, giveWay: table.columns.map(\.giveWay))
            let shown = headers.indices.map { Self.truncated(headers[$0], to: widths[$0]) }
            if !cells.isEmpty, Set(shown).count < shown.count { return records(headers: headers, cells: cells, width: width) }
        }

        var lines: [String] = []
        lines.append(line(headers, widths: widths, numeric: table.columns.map(\.isNumeric)))
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for row in cells {
            lines.append(line(row, widths: widths, numeric: table.columns.map(\.isNumeric)))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Whether the columns fit in `width` with every header keeping `readableHeader` characters (or
    /// all of a shorter one; a column narrower than that in all its cells keeps its width).
    private static func fitsReadably(_ widths: [Int], headers: [String], width: Int) -> Bool {
        let floors = widths.indices.map { min(widths[$0], max(min(headers[$0].count, readableHeader), minimumColumnWidth)) }
        return floors.reduce(2 * (widths.count - 1), +) <= width
    }

    /// The rows as records: each field on a line of its own, its name padded to the longest, its
    /// value cut to the width; a blank line between records.
    private func records(headers: [String], cells: [[String]], width: Int) -> String {
        let nameWidth = min(headers.map(\.count).max() ?? 0, max(width / 2, 1))
        let valueWidth = max(width - nameWidth - 2, 1)
        var blocks: [String] = []
        for row in cells {
            var lines: [String] = []
            for (column, cell) in row.enumerated() {
                let name = Self.truncated(headers[column], to: nameWidth)
                var line = name + String(repeating: " ", count: nameWidth - name.count) + "  " + Self.truncated(cell, to: valueWidth)
                while line.last == " " { line.removeLast() }
                lines.append(line + "\n")
            }
            blocks.append(lines.joined())
        }
        return blocks.joined(separator: "\n")
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
        // Then headers are cut, to `readableHeader` characters (which `format` made sure is enough).
        steps.append(({ giveWay[$0] != .never }, { max(min(headers[$0].count, Self.readableHeader), Self.minimumColumnWidth) }))
        steps.append(({ _ in true }, { max(min(headers[$0].count, Self.readableHeader), Self.minimumColumnWidth) }))
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

    /// `text` with control characters and noncharacters replaced by U+FFFD, so a cell can neither
    /// break a line nor drive the terminal, and an HTML page showing it stays valid (HTML forbids
    /// both in a document; Unicode reserves noncharacters for a program's internal use).
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { result.append(isUnprintable(scalar) ? "\u{FFFD}" : scalar) }
        return String(result)
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }
}
