import ArgumentParser
import LinkhostKit

/// A command that prints, byte for byte, a well-known file the server answers a host with
/// (`linkhost aasa`, `linkhost assetlinks`): the config's site for `--host`, then its file.
protocol ServedFileCommand: ParsableCommand {
    var configOptions: ConfigOptions { get }
    var host: String { get }
    /// The file's bytes for `site`, or why the site has none.
    static func file(of site: SiteConfiguration) throws -> [UInt8]
}

extension ServedFileCommand {
    func run() throws {
        StandardOutput.write(bytes: try Self.file(of: try ServedSite.site(forHost: host, configPath: configOptions.config)))
    }
}

/// `linkhost aasa --host H`: exactly the bytes served as that host's AASA file.
struct AASACommand: ServedFileCommand {
    static let configuration = CommandConfiguration(
        commandName: "aasa",
        abstract: "Print the apple-app-site-association file served for a host, byte for byte."
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("The host whose file to print, e.g. rowhni.com.", valueName: "host"))
    var host: String

    static func file(of site: SiteConfiguration) throws -> [UInt8] { site.aasa.bytes }
}

/// `linkhost assetlinks --host H`: exactly the bytes served as that host's assetlinks.json.
struct AssetLinksCommand: ServedFileCommand {
    static let configuration = CommandConfiguration(
        commandName: "assetlinks",
        abstract: "Print the assetlinks.json served for a host (Android App Links), byte for byte."
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("The host whose file to print, e.g. rowhni.com.", valueName: "host"))
    var host: String

    static func file(of site: SiteConfiguration) throws -> [UInt8] {
        guard let file = site.assetLinks else {
            throw CLIFailure.unusableInput(
                "site \(site.id) has no Android app, so /.well-known/assetlinks.json answers 404; add \"android\": { \"package\": …, \"sha256CertFingerprints\": [ … ] } to its \"app\""
            )
        }
        return file.bytes
    }
}
