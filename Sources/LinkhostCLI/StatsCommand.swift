import ArgumentParser
import LinkLog

/// `linkhost stats --by D`: hit counts grouped by one dimension; with `--funnel`, the path from
/// fallback page views through page clicks to app opens.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count logged hits by rule, kind, host, client, UTM field or day, or show the view-to-app-open funnel.",
        usage: """
            linkhost stats [--by <dimension>] [--since <when>] [--until <when>] [filters: --site --host --rule --kind --utm-* --client] [--format table|json|csv]
              linkhost stats --funnel [--by <dimension>] [--since <when>] [--until <when>] [filters] [--format table|json|csv]
            """,
        discussion: """
            With --funnel: views (fallback pages served), the open-app, store and copy clicks pages reported, \
            app opens, and app opens paired with a view within 7 days — by the view's token (lh_view) or by the \
            same invite code — credited to that view's group; of those, bypass opens (through the page's own \
            open button: the person had the app, yet the link showed the page) and installs (a link found by \
            the app after installing); each as a share of views. --kind cannot be used with --funnel. \
            Grouping by in_app, referrer_host or preview_app counts the log's rows of the whole range (no rollup).
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            What to group by: \(DimensionOption.allCases.map(\.rawValue).joined(separator: ", ")) (default kind); \
            with --funnel: \(FunnelDimension.allCases.map(\.rawValue).joined(separator: ", ")) (default: one row for everything).
            """,
            valueName: "dimension"))
    var by: String?

    @Flag(name: .long, help: "Show the funnel from fallback page views to app opens instead of hit counts.")
    var funnel = false

    @OptionGroup var options: LogQueryOptions

    func validate() throws {
        if funnel {
            if let by, FunnelDimension(rawValue: by) == nil {
                throw ValidationError(
                    "--by \(by) is not a funnel dimension; allowed with --funnel: \(FunnelDimension.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if options.kind != nil {
                throw ValidationError(
                    "--kind cannot be used with --funnel: the funnel counts fixed kinds (fallback views, event clicks, app_open); use the other filters")
            }
        } else if let by, DimensionOption(rawValue: by) == nil {
            throw ValidationError("--by \(by) is not a dimension; allowed: \(DimensionOption.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let reader = try options.openReader()
        let format = options.format.format
        let table: ResultTable
        if funnel {
            let dimension = by.flatMap(FunnelDimension.init(rawValue:))
            let rows = try reader.funnel(by: dimension, try options.filter())
            table = ResultTable(funnel: rows, dimension: dimension, percentages: format == .table)
        } else {
            let dimension = (by.flatMap(DimensionOption.init(rawValue:)) ?? .kind).dimension
            table = ResultTable(stats: try reader.stats(by: dimension, try options.filter()), dimension: dimension)
        }
        StandardOutput.write(format.render(table, width: TerminalWidth.columns))
        if let pending = try reader.rebuildPendingThroughID() {
            CLIFailure.printToStandardError(
                "note: rows up to id \(pending) were logged before this linkhost: their app opens count under their own campaigns"
                    + " and their previews under no app until `linkhost rollup` brings them to the campaign rule")
        }
    }
}

/// The values `stats --by` accepts without `--funnel`, named when a bad one is given.
enum DimensionOption: String, CaseIterable {
    case rule, kind, host, client, site, status, day
    case utmSource = "utm_source"
    case utmMedium = "utm_medium"
    case utmCampaign = "utm_campaign"
    case inApp = "in_app"
    case referrerHost = "referrer_host"
    case previewApp = "preview_app"

    var dimension: StatsDimension { StatsDimension(rawValue: rawValue) ?? .kind }
}
