import ArgumentParser
import Foundation
import LinkhostKit

/// `linkhost aasa --host H`: print exactly the bytes served as that host's AASA file.
struct AASACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Print the apple-app-site-association file served for a host, byte for byte."
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("The host whose file to print, e.g. rowhni.com.", valueName: "host"))
    var host: String

    func run() throws {
        let configuration: LinkhostConfiguration
        do {
            configuration = try ConfigurationLoader.load(path: configOptions.config)
        } catch {
            throw CLIFailure.unusableInput("the config cannot be used.\n\(error)")
        }
        guard let normalized = HostLookup.normalize(host) else {
            throw CLIFailure.unusableInput("--host \"\(host)\" is not a host name; give one such as rowhni.com")
        }
        switch HostLookup.site(for: normalized, in: configuration) {
        case .listed(let site):
            StandardOutput.write(bytes: site.aasa.bytes)
        case .fallback(let site):
            CLIFailure.printToStandardError("no site lists \(normalized); the server answers it with the default site \"\(site.id)\" (server.unknownHost)")
            StandardOutput.write(bytes: site.aasa.bytes)
        case .none:
            let known = configuration.sites.flatMap(\.hosts).joined(separator: ", ")
            throw CLIFailure.unusableInput("no site serves host \(normalized) and server.unknownHost is \"404\"; hosts in \(configOptions.config): \(known)")
        }
    }
}
