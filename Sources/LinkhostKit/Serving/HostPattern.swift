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

    /// Whether `host` ends with `suffix` (`.example.com`) and what comes before it is labels of a
    /// host name: letters, digits and hyphens, dots between them, none empty. A Host header can
    /// hold anything (a space, a slash, a NUL), and a host under a site's wildcard is written into
    /// the absolute links of its pages, so nothing else makes a subdomain.
    static func host(_ host: String, isUnder suffix: Substring) -> Bool {
        let bytes = host.utf8
        guard bytes.count > suffix.utf8.count, bytes.reversed().starts(with: suffix.utf8.reversed()) else { return false }
        var previous = UInt8(ascii: ".")
        for byte in bytes.prefix(bytes.count - suffix.utf8.count) {
            let isLabelByte =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-")
            guard isLabelByte || (byte == UInt8(ascii: ".") && previous != UInt8(ascii: ".")) else { return false }
            previous = byte
        }
        return previous != UInt8(ascii: ".")
    }
}
