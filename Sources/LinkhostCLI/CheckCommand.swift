import ArgumentParser
import Foundation
import LinkhostKit
import OrderedJSON

/// `linkhost check`: validate a config (and the AASA and assetlinks.json files it serves), an AASA
/// file or an assetlinks.json file, with stable codes, JSON paths and fixes.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config and the files it serves, or one AASA or assetlinks.json file; exit 1 on errors.",
        discussion: """
            Codes: AASA0xx are findings on an AASA file (format, app IDs, shadowed rules, catch-alls, \
            exclusions of every URL or that exclude nothing, text a URL cannot hold, size, legacy and \
            modern forms, substitution variables, signed files); AL0xx are findings on an \
            assetlinks.json file (format, statements, package names, certificate fingerprints, web \
            targets); LH0xx are disagreements between a \
            site's AASA file and its link rules; config is any other config problem. Exit status 0 with \
            warnings only, 1 with errors, 2 when the input cannot be read.

            With --against-log SINCE: every distinct link logged since then (page views and app opens) \
            is answered by Apple's matching under the AASA file --baseline serves and under the one \
            --config serves; the links that would stop or start opening the app are listed per rule. \
            Exit status 1 when any would stop, 0 otherwise, 2 for a bad time, an empty log or a \
            config that does not load.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The config to check (default config.json).", valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("An AASA file to check instead of a config.", valueName: "file"))
    var aasa: String?

    @Option(name: .long, help: ArgumentHelp("An assetlinks.json file to check instead of a config.", valueName: "file"))
    var assetlinks: String?

    @Option(
        name: .customLong("against-log"),
        help: ArgumentHelp(
            "Check --config (the new config) against the links logged since this time (30m, 24h, 7d, 2026-11-01, 2026-11-01T10:00:00Z).",
            valueName: "since"))
    var againstLog: String?

    @Option(name: .long, help: ArgumentHelp("With --against-log: the config served now (default config.json).", valueName: "path"))
    var baseline: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --against-log: the log database, a SQLite file or a postgresql:// URL (default: log.database of the baseline).", valueName: "path"))
    var db: String?

    @Flag(name: .long, help: "Print JSON (an array of findings; with --against-log, one object).")
    var json = false

    func validate() throws {
        let given = [("--config", config), ("--aasa", aasa), ("--assetlinks", assetlinks)].filter { $0.1 != nil }.map(\.0)
        if given.count > 1 { throw ValidationError("give one of --config PATH, --aasa FILE or --assetlinks FILE, not \(given.joined(separator: " and "))") }
        if againstLog == nil, baseline != nil || db != nil { throw ValidationError("--baseline and --db go with --against-log SINCE") }
        if againstLog != nil, config == nil { throw ValidationError("--against-log needs --config NEW, the config to check against the log") }
    }

    func run() throws {
        if let againstLog, let config {
            let check = try TrafficCheckRun(since: againstLog, baseline: baseline ?? "config.json", new: config, db: db).run()
            StandardOutput.write(json ? check.json.jsonText(.pretty(indent: 2)) + "\n" : check.text)
            if check.stopsAny { throw ExitCode(1) }
            return
        }
        let findings: [CheckFinding]
        if let aasa {
            findings = LinkhostCheck.check(aasaBytes: try InputFile.bytes(at: aasa, flag: "--aasa"))
        } else if let assetlinks {
            findings = LinkhostCheck.check(assetLinksBytes: try InputFile.bytes(at: assetlinks, flag: "--assetlinks"))
        } else {
            let path = config ?? "config.json"
            // A file that cannot be read at all is exit 2, worded as every other command words it.
            do {
                try ConfigurationLoader.checkReadable(path: path)
            } catch {
                throw CLIFailure.unusableInput("the config cannot be used.\n\(error)")
            }
            findings = LinkhostCheck.check(configPath: path)
        }
        let errors = findings.filter { $0.severity == .error }.count
        if json {
            StandardOutput.write(JSONValue.array(findings.map(\.json)).jsonText(.pretty(indent: 2)) + "\n")
        } else {
            for finding in findings { StandardOutput.write(finding.description + "\n") }
            StandardOutput.write("\(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s")\n")
        }
        if errors > 0 { throw ExitCode(1) }
    }
}
