import AASAKit
import HTTPServing
import LinkLog
import LinkRules
import OrderedJSON

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
    /// Seconds a request head may take, from the connection's opening or the previous response.
    public var headSeconds: Int
    /// The slowest a request body may arrive after its first second (0: no floor).
    public var bodyBytesPerSecond: Int
    public var connectionMemoryBytes: Int
    public var requestBodyBytes: Int
    public var shutdownGraceSeconds: Int
    /// Seconds a stop keeps answering requests on connections already open, each answer closing
    /// its connection, before it closes the idle ones (within `shutdownGraceSeconds`).
    public var drainSeconds: Int
    /// HTTPS, when configured: served by the server itself (libmicrohttpd with GnuTLS).
    public var tls: TLSSettings?
    /// The admin listener (`server.admin`).
    public var admin: AdminSettings
    /// Where `serve` writes its process id (absolute after loading), so `linkhost reload` can find
    /// it; `nil` writes none.
    public var pidFile: String?
    /// The periodic comparison of Apple's CDN copy with the served files; `nil` when off.
    public var cdnCheck: CDNCheckSettings?
    /// The proxies in front whose `Forwarded`/`X-Forwarded-For` name the client (`server.trustedProxies`).
    public var trustedProxies = TrustedProxies()
    /// What a reload checks (`server.reload`).
    public var reload = ReloadSettings.defaults

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
        headSeconds: 10,
        bodyBytesPerSecond: 1024,
        // 16 KiB, as Node's HTTP server allows for a request head: libmicrohttpd zeroes a connection's
        // whole pool after every request, so its size is paid per request (with the log off an AASA
        // request cost 10.7 µs of processor time with 32 KiB and 9.1 µs with 16 KiB, four runs each).
        connectionMemoryBytes: 16 * 1024,
        requestBodyBytes: 64 * 1024,
        shutdownGraceSeconds: 10,
        // A client that sends its next request as soon as an answer arrives needs a moment, not
        // seconds; a browser's idle keep-alive connection waits out the window, so it stays short.
        drainSeconds: 1,
        tls: nil,
        admin: .defaults,
        pidFile: nil,
        cdnCheck: nil
    )
}

/// What a request whose Host no site lists gets.
public enum UnknownHostPolicy: Sendable, Equatable {
    /// A plain 404 (the default: an origin should not pretend to be a host it does not serve).
    case notFound
    /// The named site answers, as if the request had been for one of its hosts.
    case site(String)
}

/// The `server.reload` object: what a reload checks before it swaps a new config in.
public struct ReloadSettings: Sendable, Equatable {
    /// The days of logged links a reload answers under the old and the new AASA files (as
    /// `linkhost check --against-log`); 0 turns the check off.
    public var checkAgainstLogDays: Int
    /// Refuse a config under which a logged link would stop opening the app, and keep the old one.
    public var refuseIfLinksStopOpening: Bool

    public static let defaults = ReloadSettings(checkAgainstLogDays: 7, refuseIfLinksStopOpening: false)
}
