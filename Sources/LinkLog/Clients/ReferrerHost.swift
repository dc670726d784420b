/// The host a Referer names, the funnel's `referrer_host`: which site sent the visitor (an app's
/// link wrapper such as `l.instagram.com`, a search engine, a mail service).
public enum ReferrerHost {
    /// The host of `referrer` in lower case, without user information, port or a trailing dot;
    /// `nil` when it is not an absolute `http`/`https` URL with a host (RFC 9110 §10.1.3 allows a
    /// relative one, which names no other site).
    public static func of(_ referrer: String?) -> String? {
        guard let referrer, let schemeEnd = referrer.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let scheme = referrer[..<schemeEnd].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = referrer[schemeEnd...].dropFirst()
        guard rest.hasPrefix("//") else { return nil }
        var authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            // An IPv6 literal keeps its brackets, without the port after them.
            guard let close = authority.firstIndex(of: "]") else { return nil }
            authority = authority[...close]
        } else if let colon = authority.lastIndex(of: ":") {
            authority = authority[..<colon]
        }
        while authority.hasSuffix(".") { authority = authority.dropLast() }
        guard !authority.isEmpty, authority.utf8.count <= 253 else { return nil }
        return authority.lowercased()
    }
}
