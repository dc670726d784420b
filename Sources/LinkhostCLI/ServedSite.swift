import LinkhostKit

/// The site that answers a host given on the command line, as the server picks it (listed, or the
/// default site of `server.unknownHost`, which is said on standard error), for the commands that
/// print what a host is served.
enum ServedSite {
    static func site(forHost host: String, configPath: String) throws -> SiteConfiguration {
        let configuration = try CLIConfig.load(configPath)
        guard let normalized = HostLookup.normalize(host) else {
            throw CLIFailure.unusableInput("--host \"\(host)\" is not a host name; give one such as rowhni.com")
        }
        switch HostLookup.site(for: normalized, in: configuration) {
        case .listed(let site):
            return site
        case .fallback(let site):
            CLIFailure.printToStandardError("no site lists \(normalized); the server answers it with the default site \"\(site.id)\" (server.unknownHost)")
            return site
        case .none:
            let known = configuration.sites.flatMap(\.hosts).joined(separator: ", ")
            throw CLIFailure.unusableInput("no site serves host \(normalized) and server.unknownHost is \"404\"; hosts in \(configPath): \(known)")
        }
    }
}
