import ArgumentParser
import Foundation
import LinkLog
import LinkhostKit

/// Where the log is and which rows to look at: shared by `log` and `stats`.
struct LogQueryOptions: ParsableArguments {
    @OptionGroup var location: LogDatabaseOptions

    @Option(name: .long, help: ArgumentHelp("Rows from this time on: 30m, 24h, 7d, 2w, 2026-11-01 or 2026-11-01T10:00:00Z.", valueName: "when"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("Rows before this time (same forms as --since).", valueName: "when"))
    var until: String?

    @Option(name: .long, help: ArgumentHelp("Only this host.", valueName: "host"))
    var host: String?

    @Option(name: .long, help: ArgumentHelp("Only this site id.", valueName: "id"))
    var site: String?

    @Option(name: .long, help: ArgumentHelp("Only this link rule.", valueName: "name"))
    var rule: String?

    @Option(name: .long, help: ArgumentHelp("Only this kind: \(HitKind.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "kind"))
    var kind: String?

    @Option(name: .customLong("utm-source"), help: ArgumentHelp("Only this utm_source.", valueName: "source"))
    var utmSource: String?

    @Option(name: .customLong("utm-medium"), help: ArgumentHelp("Only this utm_medium.", valueName: "medium"))
    var utmMedium: String?

    @Option(name: .customLong("utm-campaign"), help: ArgumentHelp("Only this utm_campaign.", valueName: "campaign"))
    var utmCampaign: String?

    @Option(name: .long, help: ArgumentHelp("Only this client class: \(ClientClass.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "class"))
    var client: String?

    // Unconditional, so `--limit -3` is read as a value and refused for what it is, not taken for
    // a flag and reported as a missing value.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("At most this many rows (or groups), 1 or more.", valueName: "n"))
    var limit: Int?

    @Option(name: .long, help: "Output format.")
    var format: FormatOption = .table

    func validate() throws {
        if let kind, !HitKind.allCases.map(\.rawValue).contains(kind) {
            throw ValidationError("--kind \(kind) is not a kind; allowed: \(HitKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let client, ClientClass(rawValue: client) == nil {
            throw ValidationError("--client \(client) is not a client class; allowed: \(ClientClass.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let limit, limit < 1 { throw ValidationError("--limit \(limit) must be 1 or more") }
        let now = LogRecord.currentTimeMilliseconds()
        var bounds: [Int64] = []
        for (flag, value) in [("--since", since), ("--until", until)] {
            guard let value else { continue }
            do {
                bounds.append(try TimeBound.parse(value, now: now))
            } catch {
                throw ValidationError("\(flag) \(value): \(error)")
            }
        }
        // An empty range is a mistake, not a question with no answer: `--since 7d --until 8d` is
        // "from 7 days ago until 8 days ago", which is backwards.
        if let since, let until, bounds.count == 2, bounds[0] >= bounds[1] {
            throw ValidationError(
                "--since \(since) is not before --until \(until), so no row can match; the later time goes in --until (e.g. --since \(until) --until \(since))")
        }
    }

    /// The filter these options describe (time bounds resolved against now).
    func filter() throws -> LogFilter {
        let now = LogRecord.currentTimeMilliseconds()
        return LogFilter(
            since: try since.map { try TimeBound.parse($0, now: now) },
            until: try until.map { try TimeBound.parse($0, now: now) },
            host: host.flatMap(HostLookup.normalize), rule: rule, kind: kind, site: site,
            utmSource: utmSource, utmMedium: utmMedium, utmCampaign: utmCampaign, clientClass: client, limit: limit
        )
    }

    /// Opens the database for reading (it must exist: reading never creates one).
    func openReader() throws -> LogReader {
        let database = try location.database()
        do {
            return try LogReader(database: database)
        } catch {
            throw CLIFailure.unusableInput("cannot read the log database \(database.displayName): \(error)")
        }
    }
}

/// `--format`, with the allowed values named when a bad one is given.
enum FormatOption: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv

    var format: OutputFormat { OutputFormat(rawValue: rawValue) ?? .table }
}
