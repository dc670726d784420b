import ArgumentParser
import LinkhostKit

/// The `linkhost` command: serve a site's Universal Links origin, and inspect what it serves.
@main
struct Linkhost: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "linkhost",
        abstract: "The web origin for an iOS app's Universal Links: AASA file, fallback pages, hit log.",
        discussion: """
            Exit status: 0 on success, 2 when the input (config, flags' values, files) cannot be used, \
            1 when the server fails at run time, 64 when the command line itself is malformed.
            """,
        version: LinkhostCLIVersion.text,
        subcommands: [
            ServeCommand.self, AASACommand.self, AssetLinksCommand.self, RoutesCommand.self, LinkCommand.self, DevCertCommand.self, ProbeCommand.self,
            MatchCommand.self,
            CheckCommand.self, LogCommand.self, StatsCommand.self, RollupCommand.self, BackupCommand.self, ReloadCommand.self, CDNCheckCommand.self,
            CertificatesCommand.self,
        ]
    )
}

enum LinkhostCLIVersion {
    static let text = "linkhost \(LinkhostVersion.current)"
}
