/// Optional narrowing of a match.
public struct AASAMatchOptions: Sendable, Hashable {
    /// The domain the file is served for (`example.com`, optionally `:port`). A URL on another host
    /// gets decision `none`, as `swcutil verify -d` reports, and so does one on another port: a
    /// domain without a port covers https's default port 443 only. Hosts are compared
    /// case-insensitively, ignoring a trailing dot, with international names in their Punycode form
    /// on both sides (`bücher.example` is `xn--bcher-kva.example`); `nil`, or a path-only URL, skips
    /// the check.
    public var domain: String?
    /// Evaluate only entries that list this app ID.
    public var appID: String?

    /// Throws when `domain`'s host is not a valid host name, e.g. an IDN label that breaks IDNA 2008
    /// or an `xn--` label that is not valid Punycode; a command line calls this before matching.
    public static func validateDomain(_ domain: String) throws(IDNAError) {
        try DomainName.validate(domain)
    }

    public init(domain: String? = nil, appID: String? = nil) {
        self.domain = domain
        self.appID = appID
    }
}
