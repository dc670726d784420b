import HTTPServer
import Logging

/// linkhost as a running server: the checked configuration, the prepared sites, and the HTTP
/// server that answers for them.
public final class LinkhostServer: Sendable {
    public let configuration: LinkhostConfiguration
    private let http: HTTPServer
    private let health: HealthReporter
    private let logger: Logger

    /// Prepares every site's responses. Throws if a prepared response cannot be built.
    public init(configuration: LinkhostConfiguration, logger: Logger = Logger(label: "linkhost")) throws {
        self.configuration = configuration
        self.logger = logger
        let health = HealthReporter(sites: configuration.sites)
        let publicDirectory = configuration.server.publicDirectory
        let staticFiles = try StaticFiles.load(from: publicDirectory + "/static")
        var sites: [HostedSite] = []
        for site in configuration.sites {
            let pages = try SitePages(site: site, publicDirectory: publicDirectory, publicScheme: configuration.server.publicScheme)
            sites.append(try HostedSite(site, cacheControl: configuration.server.aasaCacheControl, pages: pages))
        }
        let responder = try LinkhostResponder(sites: sites, unknownHostPolicy: configuration.server.unknownHost, health: health, staticFiles: staticFiles)
        let settings = configuration.server
        let httpConfiguration = HTTPServerConfiguration(
            address: settings.listenAddress,
            port: settings.port,
            threadCount: settings.threads == 0 ? HTTPServerConfiguration.defaultThreadCount : settings.threads,
            connectionLimit: settings.connectionLimit,
            perAddressConnectionLimit: settings.connectionsPerAddress,
            connectionTimeoutSeconds: settings.connectionTimeoutSeconds,
            connectionMemoryLimit: settings.connectionMemoryBytes,
            maximumBodySize: settings.requestBodyBytes,
            shutdownGraceSeconds: Double(settings.shutdownGraceSeconds)
        )
        var httpLogger = logger
        httpLogger[metadataKey: "component"] = "http"
        let http = HTTPServer(configuration: httpConfiguration, logger: httpLogger, responder: responder)
        health.attach { [weak http] in
            http?.statistics ?? .zero
        }
        self.http = http
        self.health = health
    }

    /// Binds and starts serving.
    public func start() throws(HTTPServerError) {
        try http.start()
    }

    /// The bound port (useful with port 0).
    public var port: Int { http.port }

    /// HTTP counters.
    public var statistics: HTTPServerStatistics { http.statistics }

    /// Stops accepting, finishes requests in flight, closes everything.
    public func stop() {
        health.markDraining()
        http.stop()
    }

    /// `http://address:port`, with IPv6 addresses in brackets and the wildcard address replaced by
    /// 127.0.0.1 so the URL can be opened from this machine.
    public var baseURL: String {
        let address = configuration.server.listenAddress
        let shown: String
        switch address {
        case "0.0.0.0": shown = "127.0.0.1"
        case "::": shown = "[::1]"
        default: shown = address.contains(":") ? "[\(address)]" : address
        }
        return "http://\(shown):\(port)"
    }
}
