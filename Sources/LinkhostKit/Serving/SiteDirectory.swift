/// Picks the site for a request's Host: exact host first, then the most specific `*.` wildcard,
/// then the configured policy for unknown hosts.
public struct SiteDirectory<Site: Sendable>: Sendable {
    /// The exact hosts when there are many; empty when `fewExact` holds them.
    private let exact: [String: Site]
    /// The exact hosts as a list when there are few (the usual one or two sites): comparing a short
    /// name with each costs a fraction of hashing it for the dictionary, on every request.
    private let fewExact: [(host: String, site: Site)]?
    /// Wildcard suffixes (".example.com") with their site, longest first.
    private let wildcards: [(suffix: Substring, site: Site)]
    private let fallback: Site?

    /// - Parameters:
    ///   - entries: normalised host names (lower case, no trailing dot; `*.` prefix for wildcards).
    ///   - fallback: the site for hosts nothing matches, or `nil` for 404.
    public init(entries: [(host: String, site: Site)], fallback: Site?) {
        var exact: [String: Site] = [:]
        var wildcards: [(suffix: Substring, site: Site)] = []
        for entry in entries {
            if let suffix = HostPattern.wildcardSuffix(of: entry.host) {
                wildcards.append((suffix, entry.site))
            } else {
                exact[entry.host] = entry.site
            }
        }
        fewExact = exact.count <= Self.listedHosts ? exact.map { (host: $0.key, site: $0.value) } : nil
        self.exact = fewExact == nil ? exact : [:]
        self.wildcards = wildcards.sorted { $0.suffix.utf8.count > $1.suffix.utf8.count }
        self.fallback = fallback
    }

    /// Up to this many exact hosts are looked up by comparing names one by one.
    static var listedHosts: Int { 8 }

    /// The site for a normalised host name (see `HTTPRequest.hostName`), `nil` for "answer 404".
    public func site(forHost host: String?) -> Site? {
        guard let host else { return fallback }
        if let fewExact {
            // Lengths first: `==` alone compares two different names by their characters.
            let length = host.utf8.count
            for entry in fewExact where entry.host.utf8.count == length && entry.host == host { return entry.site }
        } else if let site = exact[host] {
            return site
        }
        for wildcard in wildcards where HostPattern.host(host, isUnder: wildcard.suffix) {
            return wildcard.site
        }
        return fallback
    }
}
