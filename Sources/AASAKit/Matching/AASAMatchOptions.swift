/// Optional narrowing of a match.
public struct AASAMatchOptions: Sendable, Hashable {
    /// The domain the file is served for (`example.com`, optionally `:port`). A URL on another host
    /// gets decision `none`, as `swcutil verify -d` reports, and so does one on another port: a
    /// domain without a port covers https's default port 443 only. Hosts are compared
    /// case-insensitively, ignoring a trailing dot; `nil`, or a path-only URL, skips the check.
    public var domain: String?
    /// Evaluate only entries that list this app ID.
    public var appID: String?

    public init(domain: String? = nil, appID: String? = nil) {
        self.domain = domain
        self.appID = appID
    }
}
