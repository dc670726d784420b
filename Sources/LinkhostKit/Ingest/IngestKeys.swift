/// The bearer keys apps present when they report opens, one per site, read from the environment
/// (never from the config file, so they stay out of git): `LINKHOST_INGEST_KEY_<SITE>` with the
/// site id upper-cased and `-` written `_` (`LINKHOST_INGEST_KEY_ROWHNI`), else `LINKHOST_INGEST_KEY`
/// for every site. A site with neither has app opens switched off (its endpoint answers 404).
///
/// The keys never appear in a description, a log line or an error message.
public struct IngestKeys: Sendable, CustomStringConvertible {
    /// The shortest key accepted: shorter ones are guessable, and start-up refuses them.
    public static let minimumLength = 16
    /// The variable that gives every site the same key.
    public static let sharedVariable = "LINKHOST_INGEST_KEY"

    private let keys: [String: [UInt8]]

    /// No keys: opens are off on every site.
    public static let none = IngestKeys(keys: [:])

    private init(keys: [String: [UInt8]]) {
        self.keys = keys
    }

    /// Explicit keys by site id (tests, embedding); each must be at least `minimumLength` bytes.
    public init(_ keys: [String: String]) throws(IngestKeyError) {
        var checked: [String: [UInt8]] = [:]
        for (site, key) in keys {
            guard key.utf8.count >= Self.minimumLength else { throw IngestKeyError(variable: "the key for site \(site)", length: key.utf8.count) }
            checked[site] = Array(key.utf8)
        }
        self.keys = checked
    }

    /// The variable that holds the key of site `id`.
    public static func variable(forSite id: String) -> String {
        sharedVariable + "_" + id.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// Reads each site's key from `environment`; an empty variable counts as unset.
    public static func fromEnvironment(_ environment: [String: String], siteIDs: [String]) throws(IngestKeyError) -> IngestKeys {
        var keys: [String: [UInt8]] = [:]
        for id in siteIDs {
            let own = variable(forSite: id)
            let ownValue = environment[own] ?? ""
            let (name, value) = ownValue.isEmpty ? (sharedVariable, environment[sharedVariable] ?? "") : (own, ownValue)
            guard !value.isEmpty else { continue }
            guard value.utf8.count >= minimumLength else { throw IngestKeyError(variable: name, length: value.utf8.count) }
            keys[id] = Array(value.utf8)
        }
        return IngestKeys(keys: keys)
    }

    /// Whether site `id` takes app opens.
    public func isEnabled(forSite id: String) -> Bool { keys[id] != nil }

    /// The ids of the sites that take app opens.
    public var enabledSites: [String] { keys.keys.sorted() }

    /// Whether `authorization` (the header's value) is `Bearer <the key of site id>`. The comparison
    /// takes the same time wherever the first differing byte is.
    func accepts(_ authorization: String?, forSite id: String) -> Bool {
        guard let expected = keys[id], let authorization else { return false }
        let scheme = "bearer "
        guard authorization.utf8.count > scheme.utf8.count, authorization.prefix(scheme.count).lowercased() == scheme else { return false }
        let presented = Array(authorization.utf8.dropFirst(scheme.utf8.count))
        return ConstantTimeComparison.equal(presented, expected)
    }

    public var description: String {
        keys.isEmpty ? "no ingest keys" : "ingest keys for \(enabledSites.joined(separator: ", "))"
    }
}

/// A key from the environment that is too short to be safe; names the variable, never the value.
public struct IngestKeyError: Error, Sendable, CustomStringConvertible {
    public let variable: String
    public let length: Int

    public var description: String {
        "\(variable) holds \(length) characters; an ingest key needs at least \(IngestKeys.minimumLength). "
            + "Fix: generate one, e.g. `openssl rand -hex 24`, and export it again."
    }
}
