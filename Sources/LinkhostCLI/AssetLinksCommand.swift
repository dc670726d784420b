import ArgumentParser
import LinkhostKit

/// `linkhost assetlinks --host H`: print exactly the bytes served as that host's assetlinks.json.
struct AssetLinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assetlinks",
        abstract: "Print the assetlinks.json served for a host (Android App Links), byte for byte."
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("The host whose file to print, e.g. rowhni.com.", valueName: "host"))
    var host: String

    func run() throws {
        let site = try ServedSite.site(forHost: host, configPath: configOptions.config)
        guard let file = site.assetLinks else {
            throw CLIFailure.unusableInput(
                "site \(site.id) has no Android app, so /.well-known/assetlinks.json answers 404; add \"android\": { \"package\": …, \"sha256CertFingerprints\": [ … ] } to its \"app\""
            )
        }
        StandardOutput.write(bytes: file.bytes)
    }
}
