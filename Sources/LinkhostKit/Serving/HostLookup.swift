import HTTPServing

/// The Host-to-site decision the server makes, for command-line tools that must agree with it.
public enum HostLookup {
    public enum Result: Sendable {
        /// A site lists this host (exactly or by wildcard).
        case listed(SiteConfiguration)
        /// No site lists it; the default site of `server.unknownHost` answers.
        case fallback(SiteConfiguration)
        /// No site answers: the server says 404.
        case none
    }

    /// Normalises a host the way the server normalises a Host header (case, port, trailing dot).
    public static func normalize(_ host: String) -> String? {
        HTTPRequest.normalizedHostName(host)
    }

    public static func site(for host: String, in configuration: LinkhostConfiguration) -> Result {
        var entries: [(host: String, site: SiteConfiguration)] = []
        for site in configuration.sites {
            for name in site.hosts { entries.append((name, site)) }
        }
        let directory = SiteDirectory(entries: entries, fallback: nil)
        if let site = directory.site(forHost: host) { return .listed(site) }
        if case .site(let id) = configuration.server.unknownHost, let site = configuration.site(id: id) { return .fallback(site) }
        return .none
    }
}
