import ArgumentParser
import LinkLog

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
