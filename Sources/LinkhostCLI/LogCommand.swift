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

/// `linkhost stats --by D`: hit counts grouped by one dimension.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count logged hits by rule, kind, host, client, UTM field or day."
    )

    @Option(name: .long, help: "What to group by.")
    var by: DimensionOption = .kind

    @OptionGroup var options: LogQueryOptions

    func run() throws {
        let reader = try options.openReader()
        let rows = try reader.stats(by: by.dimension, try options.filter())
        StandardOutput.write(options.format.format.render(ResultTable(stats: rows, dimension: by.dimension), width: TerminalWidth.columns))
    }
}

/// `--by`, with the allowed values named when a bad one is given.
enum DimensionOption: String, ExpressibleByArgument, CaseIterable {
    case rule, kind, host, client, site, status, day
    case utmSource = "utm_source", utmMedium = "utm_medium", utmCampaign = "utm_campaign"

    var dimension: StatsDimension { StatsDimension(rawValue: rawValue) ?? .kind }
}

/// The terminal's width from `COLUMNS`, else 120: tables fit it.
enum TerminalWidth {
    static var columns: Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let value = Int(text), value >= 40 { return value }
        return 120
    }
}
