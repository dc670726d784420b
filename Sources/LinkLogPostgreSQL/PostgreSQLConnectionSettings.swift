import Foundation

/// A `postgresql://` (or `postgres://`) URL taken apart just enough to show it without its password
/// and to keep the password out of every message.
public struct PostgreSQLConnectionSettings: Sendable, Equatable {
    /// The URL as given, password included: only ever handed to libpq.
    public let url: String
    /// The URL without its password, for status pages, logs and errors.
    public let displayName: String
    /// The password as written in the URL and percent-decoded (from the user part or a `password=`
    /// query parameter), to cut out of messages.
    private let secrets: [String]

    /// Whether `location` is a PostgreSQL URL rather than a file path.
    public static func isURL(_ location: String) -> Bool {
        location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
    }

    /// The settings of `url`; `nil` when it is not a PostgreSQL URL.
    public init?(url: String) {
        guard Self.isURL(url), let schemeEnd = url.range(of: "://")?.upperBound else { return nil }
        self.url = url
        let rest = url[schemeEnd...]
        // The credentials end at the last "@" before the first "/", "?" or "#" (a password may hold "@").
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var secrets: [String] = []
        var shown = String(url[..<schemeEnd])
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            secrets.append(String(authority[authority.index(after: colon)..<at]))
            shown += String(authority[..<colon]) + String(authority[at...])
        } else {
            shown += String(authority)
        }
        var tail = String(rest[authorityEnd...])
        if let query = tail.range(of: "password=") {
            let valueEnd = tail[query.upperBound...].firstIndex { $0 == "&" || $0 == "#" } ?? tail.endIndex
            secrets.append(String(tail[query.upperBound..<valueEnd]))
            tail.replaceSubrange(query.upperBound..<valueEnd, with: "***")
        }
        self.secrets = secrets.flatMap { [$0, $0.removingPercentEncoding ?? $0] }.filter { !$0.isEmpty }
        displayName = shown + tail
    }

    /// `text` with the password (as given and as decoded) replaced by `***`.
    public func redacting(_ text: String) -> String {
        var result = text
        for secret in secrets { result = result.replacingOccurrences(of: secret, with: "***") }
        return result
    }
}
