/// The domain a file is served for, as `--domain` or the entitlement writes it: a host and an
/// optional port (`example.com`, `example.com:8443`, `[::1]:8443`).
///
/// Decision (spec §1, "A port is possible"): the device asks Apple's CDN for `<host>:<port>` when
/// the associated domain names a port, so a domain with a port covers that port only; a domain
/// without one covers https's default port 443 only, whether the URL writes `:443` or no port.
/// `https://example.com:8443/x` is therefore not a link of `example.com`.
struct DomainName {
    /// The port an https URL without one is fetched on.
    static let httpsPort = 443

    /// Lower case, without brackets or a trailing dot.
    let host: Substring
    let port: Int?

    init(_ text: String) {
        var host = Substring(text.lowercased())
        var port: Int?
        // A port follows the only colon of a name, or the bracket of an IPv6 literal (`::1` has none).
        let colons = host.count { $0 == ":" }
        if colons == 1 || (colons > 1 && host.hasPrefix("[")), !host.hasSuffix("]"), let colon = host.lastIndex(of: ":"),
            let number = Int(host[host.index(after: colon)...])
        {
            port = number
            host = host[..<colon]
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        self.host = Self.trimmed(host)
        self.port = port
    }

    /// Host equality ignoring case and a trailing dot.
    func matches(host other: String) -> Bool {
        host == Self.trimmed(Substring(other.lowercased()))
    }

    private static func trimmed(_ text: Substring) -> Substring { text.hasSuffix(".") ? text.dropLast() : text }
}
