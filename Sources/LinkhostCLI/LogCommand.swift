import ArgumentParser
import Foundation
import LinkLog

/// `linkhost log`: the newest hits, filtered, as a table, JSON or CSV. Works while the server writes.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "List logged hits, newest first.",
        discussion: "JSON is one array of objects keyed by column name; CSV has a header row. Without --limit, a table shows 50 rows."
    )

    @OptionGroup var options: LogQueryOptions

    func run() throws {
        let reader = try options.openReader()
        var filter = try options.filter()
        if filter.limit == nil && options.format == .table { filter.limit = 50 }
        let rows = try reader.rows(filter)
        let columns = options.format == .table ? HitColumn.tableDefault : HitColumn.allCases
        StandardOutput.write(options.format.format.render(ResultTable(hits: rows, columns: columns), width: TerminalWidth.columns))
    }
}
