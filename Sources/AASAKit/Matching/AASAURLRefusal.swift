/// Why a URL gets decision `none` before any rule of the file is read: it is not a link the file
/// can speak for.
public enum AASAURLRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The scheme is not `https` (lower-cased as parsed): `http`, `ftp`, a custom scheme.
    ///
    /// Decision: universal links are `https` URLs only. An `http` link to an associated domain opens
    /// in Safari and never in the app, and any other scheme is not a web link at all, so no rule is
    /// consulted. A path-only URL (no scheme) is taken as an `https` link on the file's domain.
    case notHTTPS(scheme: String)
    /// The host is not the domain the file is served for.
    case anotherHost(domain: String, host: String)
    /// The host is the domain's, but the port is not the one the domain covers: the port the domain
    /// names, or https's default 443 when it names none. `port` is the URL's, `nil` when not written.
    case anotherPort(domain: String, port: Int?, expected: Int)

    /// A host in quotes, with its ASCII form after it when that is spelt differently (an IDN).
    private static func shown(_ host: String) -> String {
        guard let ascii = try? IDNA.asciiHost(host), ascii != host.lowercased() else { return "\"\(host)\"" }
        return "\"\(host)\" (\(ascii))"
    }

    public var description: String {
        switch self {
        case .notHTTPS(let scheme):
            scheme == "http"
                ? "the URL is http; universal links are https only, and iOS opens an http link in the browser, never in the app"
                : "the URL's scheme is \"\(scheme)\"; universal links are https URLs only, so no rule applies"
        case .anotherHost(let domain, let host):
            "the URL's host \(Self.shown(host)) is not \(Self.shown(domain)), the domain the file is served for"
        case .anotherPort(let domain, let port, let expected):
            expected == 443
                ? "the URL is on port \(port.map(String.init) ?? "443"), but the domain \"\(domain)\" has no port, which covers only https's default port 443"
                : "the URL is on port \(port.map(String.init) ?? "443 (the default)"), but the domain \"\(domain)\" covers only port \(expected)"
        }
    }
}
