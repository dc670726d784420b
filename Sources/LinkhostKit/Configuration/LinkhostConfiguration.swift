import OrderedJSON

/// Everything one config file says: how the server runs and which sites it fronts.
public struct LinkhostConfiguration: Sendable {
    public var server: ServerSettings
    public var sites: [SiteConfiguration]
    /// The folder relative paths in the file are resolved against (the config file's folder).
    public var baseDirectory: String

    /// The site with the given id.
    public func site(id: String) -> SiteConfiguration? { sites.first { $0.id == id } }
}

/// The `server` object: where to listen and how to treat clients.
public struct ServerSettings: Sendable, Equatable {
    public var listenAddress: String
    public var port: Int
    /// What a request for a host no site lists gets.
    public var unknownHost: UnknownHostPolicy
    /// `Cache-Control` sent with every AASA file.
    public var aasaCacheControl: String
    /// 0 means one worker thread per processor.
    public var threads: Int
    public var connectionLimit: Int
    public var connectionsPerAddress: Int
    public var connectionTimeoutSeconds: Int
    public var connectionMemoryBytes: Int
    public var requestBodyBytes: Int
    public var shutdownGraceSeconds: Int

    public static let defaults = ServerSettings(
        listenAddress: "0.0.0.0",
        port: 8080,
        unknownHost: .notFound,
        aasaCacheControl: "public, max-age=3600",
        threads: 0,
        connectionLimit: 2048,
        connectionsPerAddress: 256,
        connectionTimeoutSeconds: 15,
        connectionMemoryBytes: 32 * 1024,
        requestBodyBytes: 64 * 1024,
        shutdownGraceSeconds: 10
    )
}

/// What a request whose Host no site lists gets.
public enum UnknownHostPolicy: Sendable, Equatable {
    /// A plain 404 (the default: an origin should not pretend to be a host it does not serve).
    case notFound
    /// The named site answers, as if the request had been for one of its hosts.
    case site(String)
}

/// One site: the hosts it answers for, its app, and its AASA file.
public struct SiteConfiguration: Sendable {
    /// Short stable name used in logs and the CLI (`rowhni`, `awful`).
    public var id: String
    /// Lower-case host names; a leading `*.` matches any subdomain (not the bare domain).
    public var hosts: [String]
    public var app: AppConfiguration
    /// The AASA file served for every host of the site, exactly as it goes on the wire.
    public var aasa: AASAFile
}

/// The iOS app a site's links open.
public struct AppConfiguration: Sendable, Equatable {
    /// Display name, used on pages ("Open in Rowhni").
    public var name: String
    /// `<team ID>.<bundle ID>` identifiers, as in the AASA file.
    public var appIDs: [String]
    /// The numeric App Store id (for the store button and Smart App Banner), if the app is listed.
    public var appStoreID: String?
    /// The custom URL scheme (`rowhni`, `awful`) without `://`.
    public var scheme: String
}

/// An AASA file ready to serve: its exact bytes and where they came from.
public struct AASAFile: Sendable {
    /// Largest uncompressed file iOS accepts (iOS 9.3.1 and later; swcd caps its buffer at 0x20000).
    public static let maximumSize = 131_072

    public var bytes: [UInt8]
    /// The parsed document (for tools that inspect it).
    public var document: JSONValue
    /// `config` when built from the config's `aasa` object, else the file path it was read from.
    public var origin: String
}
