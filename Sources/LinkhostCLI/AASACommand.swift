import ArgumentParser
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
        StandardOutput.write(bytes: try ServedSite.site(forHost: host, configPath: configOptions.config).aasa.bytes)
    }
}
