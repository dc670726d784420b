import ArgumentParser
import Foundation
import LinkhostKit
import OrderedJSON

/// `linkhost check`: validate a config (and the AASA files it serves) or an AASA file, with stable
/// codes, JSON paths and fixes.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config and its AASA files, or one AASA file; exit 1 on errors.",
        discussion: """
            Codes: AASA0xx are findings on an AASA file (format, app IDs, shadowed rules, catch-alls, \
            exclusions of every URL or that exclude nothing, text a URL cannot hold, size, legacy and \
            modern forms, substitution variables, signed files); LH0xx are disagreements between a \
            site's AASA file and its link rules; config is any other config problem. Exit status 0 with \
            warnings only, 1 with errors, 2 when the input cannot be read.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The config to check (default config.json).", valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("An AASA file to check instead of a config.", valueName: "file"))
    var aasa: String?

    @Flag(name: .long, help: "Print a JSON array of findings.")
    var json = false

    func validate() throws {
        if aasa != nil && config != nil { throw ValidationError("give --config PATH or --aasa FILE, not both") }
    }

    func run() throws {
        let findings: [CheckFinding]
        if let aasa {
            findings = LinkhostCheck.check(aasaBytes: try InputFile.bytes(at: aasa, flag: "--aasa"))
        } else {
            let path = config ?? "config.json"
            // Read once for the reason it cannot be (missing, a folder, unreadable); the loader reads it again.
            _ = try InputFile.bytes(at: path, flag: "--config")
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
