/// A host name as a site lists it: exact, or `*.example.com` for every subdomain of example.com at
/// any depth, but not example.com itself. The one wildcard rule: picking a request's site and
/// deciding whether a site lists a host both ask it.
///
/// Both sides are normalised (lower case, no port, no trailing dot), so bytes are compared.
enum HostPattern {
    /// `.example.com` for `*.example.com`: what a matching host ends with; `nil` for an exact name.
    static func wildcardSuffix(of listed: String) -> Substring? {
        listed.utf8.starts(with: "*.".utf8) ? listed.dropFirst() : nil
    }

    /// Whether `host` is `listed`, or lies under it when `listed` is a wildcard.
    static func matches(_ host: String, listed: String) -> Bool {
        guard let suffix = wildcardSuffix(of: listed) else { return host == listed }
        return self.host(host, isUnder: suffix)
    }

    /// Whether `host` ends with `suffix` (`.example.com`) and has a label before it.
    static func host(_ host: String, isUnder suffix: Substring) -> Bool {
        host.utf8.count > suffix.utf8.count && host.utf8.reversed().starts(with: suffix.utf8.reversed())
    }
}
