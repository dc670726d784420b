import Foundation

/// Host, port and path of an `http://` URL.
struct ProbeTarget {
    let host: String
    let port: Int
    let path: String

    init(host: String, port: Int, path: String) {
        self.host = host
        self.port = port
        self.path = path
    }

    init?(_ url: String) {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst(7)
        let authority = rest.prefix { $0 != "/" }
        path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else { return nil }
            host = String(authority[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            port = number
        } else {
            host = String(authority).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            port = 80
        }
        guard !host.isEmpty else { return nil }
    }

    /// The host as a `Host` header and a URL write it: an IPv6 address in brackets.
    var hostHeader: String { host.contains(":") ? "[\(host)]" : host }

    /// The URL again, for messages.
    var url: String { "http://\(hostHeader)\(port == 80 ? "" : ":\(port)")\(path)" }
}
