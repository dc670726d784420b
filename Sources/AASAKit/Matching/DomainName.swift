/// The domain a file is served for, as `--domain` or the entitlement writes it: a host and an
/// optional port (`example.com`, `example.com:8443`, `[::1]:8443`, `bücher.example`).
///
/// Decision: the device asks Apple's CDN for `<host>:<port>` when
/// the associated domain names a port, so a domain with a port covers that port only; a domain
/// without one covers https's default port 443 only, whether the URL writes `:443` or no port.
/// `https://example.com:8443/x` is therefore not a link of `example.com`.
struct DomainName {
    /// The port an https URL without one is fetched on.
    static let httpsPort = 443

    /// Lower case in ASCII (an IDN as its `xn--` form), without brackets or a trailing dot.
    let host: Substring
    let port: Int?

    init(_ text: String) {
        let (host, port) = Self.split(text)
        // An invalid name cannot be the host of a parsed URL; it is compared as written and so
        // matches nothing (the command line refuses it before, with ``validate(_:)``).
        self.host = Self.trimmed(Substring((try? IDNA.asciiHost(String(host))) ?? host.lowercased()))
        self.port = port
    }

    /// Throws when the host part of `text` is not a valid host name (see ``IDNA``).
    static func validate(_ text: String) throws(IDNAError) {
        _ = try IDNA.asciiHost(String(split(text).host))
    }

    /// Host equality ignoring case and a trailing dot; `asciiHost` is a URL's ``AASAURL/asciiHost``.
    func matches(asciiHost other: String) -> Bool {
        host == Self.trimmed(Substring(other))
    }

    /// The host (brackets removed) and the port. A port follows the only colon of a name, or the
    /// bracket of an IPv6 literal (`::1` has none).
    private static func split(_ text: String) -> (host: Substring, port: Int?) {
        var host = Substring(text)
        var port: Int?
        let colons = host.count { $0 == ":" }
        if colons == 1 || (colons > 1 && host.hasPrefix("[")), !host.hasSuffix("]"), let colon = host.lastIndex(of: ":"),
            let number = Int(host[host.index(after: colon)...])
        {
            port = number
            host = host[..<colon]
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        return (host, port)
    }

    private static func trimmed(_ text: Substring) -> Substring { text.hasSuffix(".") ? text.dropLast() : text }
}
