import LinkhostKit

/// Config loading and site selection shared by the subcommands, with their error wording.
enum CLIConfig {
    static func load(_ path: String) throws -> LinkhostConfiguration {
        do {
            return try ConfigurationLoader.load(path: path)
        } catch {
            throw CLIFailure.unusableInput("the config cannot be used.\n\(error)")
        }
    }

    /// The sites to act on: the one serving `host` (by the server's own rules), or all of them.
    static func sites(for host: String?, in configuration: LinkhostConfiguration, flag: String) throws -> [SiteConfiguration] {
        guard let host else { return configuration.sites }
        guard let normalized = HostLookup.normalize(host) else {
            throw CLIFailure.unusableInput("\(flag) \"\(host)\" is not a host name")
        }
        switch HostLookup.site(for: normalized, in: configuration) {
        case .listed(let site), .fallback(let site): return [site]
        case .none:
            throw CLIFailure.unusableInput("\(flag) \(normalized): no site serves it; hosts: \(configuration.sites.flatMap(\.hosts).joined(separator: ", "))")
        }
    }
}
