import AASAKit
import HTTPServing
import LinkLog
import LinkRules
import OrderedJSON

/// Everything one config file says: how the server runs and which sites it fronts. Only
/// `ConfigurationLoader` makes one, after every check, and it cannot change afterwards: command-line
/// overrides go in through `ConfigurationOverrides`, before the checks.
public struct LinkhostConfiguration: Sendable {
    public let server: ServerSettings
    public let sites: [SiteConfiguration]
    /// The hit log.
    public let log: LogSettings
    /// The folder relative paths in the file are resolved against (the config file's folder).
    public let baseDirectory: String

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
        // 16 KiB, as Node's HTTP server allows for a request head: libmicrohttpd zeroes a connection's
        // whole pool after every request, so its size is paid per request (with the log off an AASA
        // request cost 10.7 µs of processor time with 32 KiB and 9.1 µs with 16 KiB, four runs each).
        connectionMemoryBytes: 16 * 1024,
        requestBodyBytes: 64 * 1024,
        shutdownGraceSeconds: 10,
        tls: nil,
        admin: .defaults,
        pidFile: nil,
        cdnCheck: nil
    )
}

/// The `server.tls` object: certificate, key, port, and what the plain-HTTP listener does.
public struct TLSSettings: Sendable, Equatable {
    /// What the plain-HTTP listener (`server.listen`) does when HTTPS is on.
    public enum PlainHTTP: String, Sendable, CaseIterable {
        /// Serve the AASA file and health as usual; redirect pages to HTTPS (308).
        case redirect
        /// Serve everything over plain HTTP too.
        case serve
        /// No plain-HTTP listener at all.
        case off
    }

    public var certificatePath: String
    public var keyPath: String
    /// The PEM text, read when the config is loaded.
    public var certificatePEM: String
    public var keyPEM: String
    public var port: Int
    /// The port in redirect URLs, when clients reach HTTPS through another port (a container
    /// mapping, a load balancer); defaults to `port`.
    public var publicPort: Int?
    public var plainHTTP: PlainHTTP
    /// `Strict-Transport-Security` value; `nil` sends none.
    public var hsts: String?
    /// A GnuTLS priority string replacing the built-in intermediate profile (`server.tls.priorities`);
    /// `nil` keeps the profile (`TLSCredentials.intermediatePriorities`).
    public var priorities: String?

    public init(
        certificatePath: String, keyPath: String, certificatePEM: String, keyPEM: String, port: Int = 8443, publicPort: Int? = nil,
        plainHTTP: PlainHTTP = .redirect, hsts: String? = "max-age=31536000", priorities: String? = nil
    ) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
        self.port = port
        self.publicPort = publicPort
        self.plainHTTP = plainHTTP
        self.hsts = hsts
        self.priorities = priorities
    }

    /// Reads PEM files, checking they hold what their names say.
    public static func load(certificatePath: String, keyPath: String) -> Result<(certificate: String, key: String), TLSFileProblem> {
        guard let certificate = try? String(contentsOfFile: certificatePath, encoding: .utf8) else {
            return .failure(TLSFileProblem(which: .certificate, problem: "cannot read \(certificatePath)"))
        }
        guard certificate.contains("-----BEGIN CERTIFICATE-----") else {
            return .failure(TLSFileProblem(which: .certificate, problem: "\(certificatePath) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"))
        }
        guard let key = try? String(contentsOfFile: keyPath, encoding: .utf8) else {
            return .failure(TLSFileProblem(which: .key, problem: "cannot read \(keyPath)"))
        }
        guard key.contains("PRIVATE KEY-----") else {
            return .failure(TLSFileProblem(which: .key, problem: "\(keyPath) holds no PEM private key (-----BEGIN … PRIVATE KEY-----)"))
        }
        return .success((certificate, key))
    }
}

/// Why a certificate or key file cannot be used.
public struct TLSFileProblem: Error, Sendable {
    public enum Which: Sendable { case certificate, key }
    public let which: Which
    public let problem: String
}

/// The `log` object: where the hit log is and what it keeps.
public struct LogSettings: Sendable, Equatable {
    /// Whether hits are logged at all.
    public var enabled: Bool
    /// The SQLite file (absolute after loading; relative paths are from the config file's folder),
    /// or a `postgresql://` URL.
    public var databasePath: String
    /// Where a PostgreSQL log's key that hashes secret parameters is kept (a SQLite log keeps its
    /// key beside the file, `<file>.key`). Instances writing into one database must share it.
    public var secretKeyFile: String
    /// Where a PostgreSQL log's writer keeps batches while the server cannot be reached (a SQLite
    /// file, replayed in order once it is back).
    public var spoolFile: String
    /// How client addresses are stored: truncated (IPv4 /24, IPv6 /48) or not at all.
    public var clientAddress: ClientAddressPolicy
    /// Rows older than this many days are deleted; 0 keeps everything.
    public var retentionDays: Int
    /// Query parameters kept (besides `utm_*`, which have columns), e.g. `from` of `from=qrcode`.
    public var trackedParameters: [String]
    /// Records waiting for the writer at most; beyond it they are counted as dropped.
    public var queueCapacity: Int

    public static let defaultDatabase = "data/linkhost.sqlite"
    /// The hash key of a PostgreSQL log, unless `secretKeyFile` says otherwise (from the config's folder).
    public static let defaultSecretKeyFile = "data/linkhost.key"
    /// A PostgreSQL log's local spool, unless `spoolFile` says otherwise (from the config's folder).
    public static let defaultSpoolFile = "data/linkhost-spool.sqlite"

    public init(
        enabled: Bool = true, databasePath: String = LogSettings.defaultDatabase, secretKeyFile: String = LogSettings.defaultSecretKeyFile,
        spoolFile: String = LogSettings.defaultSpoolFile, clientAddress: ClientAddressPolicy = .truncated, retentionDays: Int = 90,
        trackedParameters: [String] = ["from"], queueCapacity: Int = 65_536
    ) {
        self.enabled = enabled
        self.databasePath = databasePath
        self.secretKeyFile = secretKeyFile
        self.spoolFile = spoolFile
        self.clientAddress = clientAddress
        self.retentionDays = retentionDays
        self.trackedParameters = trackedParameters
        self.queueCapacity = queueCapacity
    }
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
    /// The assetlinks.json served for every host of the site, when the app has an Android block.
    public var assetLinks: AssetLinksFile?
    /// How the file relates to the rules, for the agreement check.
    public var aasaPolicy: AASAPolicy
    /// How fast one client network may report app opens and page events (`sites[].ingest.rateLimit`).
    public var ingestRateLimit: IngestRateLimit = .default

    /// Whether `host` (normalised) is one of the site's hosts, exactly or by a `*.` wildcard.
    public func lists(host: String) -> Bool {
        hosts.contains { HostPattern.matches(host, listed: $0) }
    }

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
    /// The Android app (`app.android`): served as assetlinks.json and offered to Android visitors.
    public var android: AndroidAppConfiguration?

    public init(name: String, appIDs: [String], appStoreID: String? = nil, appStoreURL: String? = nil, scheme: String, android: AndroidAppConfiguration? = nil)
    {
        self.name = name
        self.appIDs = appIDs
        self.appStoreID = appStoreID
        self.appStoreURL = appStoreURL
        self.scheme = scheme
        self.android = android
    }

    /// The store page: from the App Store id when given, else `appStoreURL`.
    public var storeURL: String? {
        if let appStoreID { return "https://apps.apple.com/app/id\(appStoreID)" }
        return appStoreURL
    }
}

/// The Android app of a site (`app.android`): what its assetlinks.json says and where Android
/// visitors get the app.
public struct AndroidAppConfiguration: Sendable, Equatable {
    /// The applicationId (`com.yaman.rowhni`).
    public var packageName: String
    /// SHA-256 fingerprints of the certificates the app is signed with, upper-case hex with colons.
    public var fingerprints: [String]
    /// `app.android.playURL`, when the config gives one.
    public var playURL: String?

    public init(packageName: String, fingerprints: [String], playURL: String? = nil) {
        self.packageName = packageName
        self.fingerprints = fingerprints
        self.playURL = playURL
    }

    /// Where "Get <App>" leads an Android visitor: `playURL`, else the package's Google Play page.
    public var storeURL: String {
        playURL ?? "https://play.google.com/store/apps/details?id=\(packageName)"
    }
}

/// An assetlinks.json ready to serve: its exact bytes, generated from `app.android`.
public struct AssetLinksFile: Sendable {
    public var bytes: [UInt8]
    public var document: JSONValue
}

/// How a site's AASA file relates to its link rules.
public struct AASAPolicy: Sendable, Equatable {
    /// Components the config adds before the rules' own (so rule `i` is component
    /// `extraComponentCount + i` of a generated file).
    public var extraComponentCount: Int
    /// Whether the file was generated from the rules (else it is `aasa.file`, served as written).
    public var isGenerated: Bool
    /// The config's explicit consent to components that open URLs no link rule serves.
    public var allowsComponentsWithoutPages: Bool

    public init(extraComponentCount: Int = 0, isGenerated: Bool = true, allowsComponentsWithoutPages: Bool = false) {
        self.extraComponentCount = extraComponentCount
        self.isGenerated = isGenerated
        self.allowsComponentsWithoutPages = allowsComponentsWithoutPages
    }
}

/// An AASA file ready to serve: its exact bytes and where they came from.
public struct AASAFile: Sendable {
    /// Largest uncompressed file iOS accepts (iOS 9.3.1 and later; swcd caps its buffer at 0x20000).
    public static let maximumSize = AASAValidator.maximumFileSize

    public var bytes: [UInt8]
    /// The parsed document (for tools that inspect it).
    public var document: JSONValue
    /// `generated` when built from the link rules, else the file path it was read from.
    public var origin: String
    /// AASA040 when `aasa.file` is in a CMS (PKCS #7) signature: ``bytes`` are the JSON inside it,
    /// and the server warns at start that signing is obsolete.
    public var unwrappedSignature: AASAFinding? = nil
}
