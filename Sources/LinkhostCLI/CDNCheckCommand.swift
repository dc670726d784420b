import ArgumentParser
import CDNCheck
import Foundation
import LinkhostKit
import OrderedJSON

/// `linkhost cdn-check`: what Apple's CDN hands devices for each host, compared with what linkhost
/// serves for it under the config — since iOS 14 devices never fetch the file from the origin, so a
/// change is live only once the CDN has it.
struct CDNCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdn-check",
        abstract: "Compare Apple's CDN copy of each host's AASA file with the file linkhost serves.",
        discussion: """
            Fetches <cdn-base>/a/v1/<host> for every host of the config (or each --host) and compares it \
            with the file served for that host: the same JSON, or which app IDs and rules differ, or no \
            copy at all (404), with the CDN's Age and Last-Modified. Exit status: 0 every host in sync, \
            1 a host differs or has no copy on the CDN, 2 a host could not be checked (no answer in time, \
            5xx, a body that is not JSON) or the config cannot be used.
            """
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("A host to check (repeat for several); default: every host of the config.", valueName: "host"))
    var host: [String] = []

    @Option(name: .long, help: ArgumentHelp("The CDN to ask.", valueName: "url"))
    var cdnBase: String = CDNChecker.appleBase

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for each host's answer (1...300).", valueName: "seconds"))
    var timeout: Int = 10

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard CDNChecker.isUsableBase(cdnBase) else {
            throw ValidationError(
                "--cdn-base \"\(cdnBase)\" is not an http:// or https:// URL with a host (e.g. \(CDNChecker.appleBase) or http://127.0.0.1:8081)")
        }
        guard (1...300).contains(timeout) else {
            throw ValidationError("--timeout \(timeout) is outside 1...300 seconds")
        }
    }

    func run() async throws {
        let configuration = try CLIConfig.load(configOptions.config)
        var targets: [CDNTarget]
        var wildcards: [String] = []
        if host.isEmpty {
            (targets, wildcards) = CDNTargets.all(in: configuration)
        } else {
            switch CDNTargets.named(host, in: configuration) {
            case .success(let named): targets = named
            case .failure(let problem): throw CLIFailure.unusableInput("--host: \(problem)")
            }
        }
        guard !targets.isEmpty else {
            throw CLIFailure.unusableInput(
                "no host to check: every host in \(configOptions.config) is a wildcard (\(wildcards.joined(separator: ", "))); name one with --host")
        }
        let report = await CDNChecker(base: cdnBase, timeoutSeconds: Double(timeout)).check(targets)
        if json {
            var document = report.json
            if case .object(var members) = document {
                members.append(JSONMember("skippedWildcards", .array(wildcards.map { .string($0) })))
                document = .object(members)
            }
            StandardOutput.write(bytes: document.serialized(.pretty(indent: 2)) + [0x0A])
        } else {
            StandardOutput.write(CDNCheckText(report: report, skippedWildcards: wildcards).text)
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }
}
