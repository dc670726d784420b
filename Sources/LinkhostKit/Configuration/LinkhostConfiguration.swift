import LinkRules
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
    /// Folder with `templates/`, `static/` and `locales/` (relative paths: from the config file).
    public var publicDirectory: String
    /// Scheme of the public URLs (link previews, Smart App Banner): `https` behind a TLS terminator.
    public var publicScheme: String
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
        publicDirectory: "Public",
        publicScheme: "https",
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

/// One site: the hosts it answers for, its app, its link rules, and its AASA file.
public struct SiteConfiguration: Sendable {
    /// Short stable name used in logs and the CLI (`rowhni`, `awful`).
    public var id: String
    /// Lower-case host names; a leading `*.` matches any subdomain (not the bare domain).
    public var hosts: [String]
    public var app: AppConfiguration
    /// Page languages, in order of preference when a visitor states none.
    public var languages: [String]
    /// The language of pages when `Accept-Language` names none of `languages`.
    public var defaultLanguage: String
    /// The ordered link rules and the site-wide pass-through parameters.
    public var router: LinkRouter
    /// Base URL of the web version, for "continue on the web" (`https://forums.somethingawful.com`).
    public var webBaseURL: String?
    /// Path of the link-preview image under the public folder (`/static/og/awful.png`).
    public var previewImage: String?
    /// The AASA file served for every host of the site, exactly as it goes on the wire.
    public var aasa: AASAFile

    /// The host used in absolute URLs when a request's own Host is not one of the site's.
    public var primaryHost: String {
        hosts.first { !$0.hasPrefix("*.") } ?? String(hosts[0].dropFirst(2))
    }
}

/// The iOS app a site's links open.
public struct AppConfiguration: Sendable, Equatable {
    /// Display name, used on pages ("Open in Rowhni").
    public var name: String
    /// `<team ID>.<bundle ID>` identifiers, as in the AASA file.
    public var appIDs: [String]
    /// The numeric App Store id (for the store button and Smart App Banner), if the app is listed.
    public var appStoreID: String?
    /// Where "Get <App>" leads when there is no App Store id (a search, a TestFlight invitation).
    public var appStoreURL: String?
    /// The custom URL scheme (`rowhni`, `awful`) without `://`.
    public var scheme: String

    /// The store page: from the App Store id when given, else `appStoreURL`.
    public var storeURL: String? {
        if let appStoreID { return "https://apps.apple.com/app/id\(appStoreID)" }
        return appStoreURL
    }
}

/// An AASA file ready to serve: its exact bytes and where they came from.
public struct AASAFile: Sendable {
    /// Largest uncompressed file iOS accepts (iOS 9.3.1 and later; swcd caps its buffer at 0x20000).
    public static let maximumSize = 131_072

    public var bytes: [UInt8]
    /// The parsed document (for tools that inspect it).
    public var document: JSONValue
    /// `generated` when built from the link rules, else the file path it was read from.
    public var origin: String
}
