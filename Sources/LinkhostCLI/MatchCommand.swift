import AASAKit
import ArgumentParser
import Foundation
import LinkhostKit

/// `linkhost match URL`: does this URL open the app, which rule decided, and why — Apple's matching
/// rules on Linux, where only macOS's `swcutil` could answer before.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Explain whether a URL opens the app under an AASA file, and which rule decided.",
        discussion: """
            With --config, the URL's host picks the site and its served AASA file, and the fallback page \
            a visitor without the app gets is shown too. With --aasa, any AASA file (every shape, the \
            oldest included) is read; --domain names the host it was served from. A file iOS refuses \
            whole (over 128 KB, not JSON, not an AASA file) or an entry whose app ID is malformed decides \
            that nothing opens, and the answer says why. Exit status 0 whatever the decision, 2 when the \
            URL cannot be used or the file cannot be read (missing, empty).
            """
    )

    @Argument(help: ArgumentHelp("The URL, e.g. https://rowhni.com/addfriend?code=TEST123.", valueName: "url"))
    var url: String

    @Option(name: .long, help: ArgumentHelp("An AASA file to match against.", valueName: "file"))
    var aasa: String?

    @Option(name: .long, help: ArgumentHelp("With --aasa: the host the file is served from (a URL on another host is none).", valueName: "host"))
    var domain: String?

    @Option(name: .long, help: ArgumentHelp("The config whose sites serve the URL's host (default config.json).", valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Only the rules of this app ID.", valueName: "appid"))
    var app: String?

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        if aasa != nil && config != nil { throw ValidationError("give --aasa FILE or --config PATH, not both") }
        if domain != nil && aasa == nil { throw ValidationError("--domain goes with --aasa (with --config, the URL's host picks the site)") }
    }

    func run() throws {
        let explanation: LinkExplanation
        if let domain {
            do {
                try AASAMatchOptions.validateDomain(domain)
            } catch {
                throw CLIFailure.unusableInput("--domain \(error)")
            }
        }
        if let aasa {
            let bytes = try InputFile.bytes(at: aasa, flag: "--aasa")
            guard !bytes.isEmpty else { throw CLIFailure.unusableInput("--aasa \(aasa): the file is empty (0 bytes); an AASA file is a JSON object") }
            do {
                explanation = try LinkExplanation.explain(url, aasa: bytes, domain: domain, appID: app)
            } catch {
                throw CLIFailure.unusableInput("\(error)")
            }
        } else {
            let configuration = try CLIConfig.load(config ?? "config.json")
            do {
                explanation = try LinkExplanation.explain(url, configuration: configuration, appID: app)
            } catch {
                throw CLIFailure.unusableInput("\(error)")
            }
        }
        StandardOutput.write(json ? explanation.json.jsonText(.pretty(indent: 2)) + "\n" : explanation.text)
    }
}
