import ArgumentParser
import Foundation
import LinkLog

/// `linkhost log`: the newest hits, filtered, as a table, JSON or CSV. Works while the server writes.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "List logged hits, newest first.",
        usage:
            "linkhost log [--since <when>] [--until <when>] [filters: --site --host --rule --kind --utm-* --client] [--columns <names>] [--limit <n>] [--format table|json|csv]",
        discussion: """
            JSON is one array of objects keyed by column name; CSV has a header row. Without --limit, a table shows 50 rows. \
            Without --columns, a table shows \(HitColumn.tableDefault.map(\.rawValue).joined(separator: ",")) and JSON and CSV \
            every column but secret.
            """
    )

    @OptionGroup var options: LogQueryOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The columns to show, comma-separated, from: \(HitColumn.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "names"))
    var columns: String?

    func validate() throws {
        if let columns { _ = try Self.hitColumns(columns) }
    }

    func run() throws {
        let reader = try options.openReader()
        var filter = try options.filter()
        if filter.limit == nil && options.format == .table { filter.limit = 50 }
        let rows = try reader.rows(filter)
        let chosen = try columns.map(Self.hitColumns) ?? (options.format == .table ? HitColumn.tableDefault : HitColumn.fullDefault)
        StandardOutput.write(options.format.format.render(ResultTable(hits: rows, columns: chosen), width: TerminalWidth.columns))
    }

    /// The columns a `--columns` value names, in its order.
    private static func hitColumns(_ list: String) throws -> [HitColumn] {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        return try names.map { name in
            guard let column = HitColumn(rawValue: name) else {
                throw ValidationError(
                    "--columns: \"\(name)\" is not a column; allowed: \(HitColumn.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return column
        }
    }
}
