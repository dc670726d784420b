import HTTPServing
import LinkLog
import Logging

/// linkhost as a running server: the checked configuration, the prepared sites, and the listeners
/// that answer for them — plain HTTP, HTTPS, or both (with plain HTTP redirecting pages).
public final class LinkhostServer: Sendable {
    public let configuration: LinkhostConfiguration
    /// The plain-HTTP listener (`server.listen`), absent when `tls.http` is `off`.
    private let http: HTTPServer?
    /// The HTTPS listener (`server.tls`), when configured.
    private let https: HTTPServer?
    private let health: HealthReporter
    /// Every listener that runs, for counters and health.
    let listeners: [HTTPServer]
    /// The plain-HTTP responder in redirect mode, told the HTTPS port once it is bound.
    private let redirect: LateRedirect?
    /// The hit log (absent when `log.enabled` is false).
    private let hitLogger: HitLogger?
    /// What the public listeners answered, counted for `/metrics`.
    public let metrics: ServingMetrics

    /// Prepares every site's responses. Throws if a page file or a prepared response is unusable.
    /// - Parameter ingestKeys: the keys apps report opens with (see `IngestKeys.fromEnvironment`);
    ///   sites without one answer `POST /v1/opens` with 404.
    public init(configuration: LinkhostConfiguration, ingestKeys: IngestKeys = .none, logger: Logger = Logger(label: "linkhost")) throws {
        self.configuration = configuration
        let settings = configuration.server
        let commonHeaders = CommonHeaders(settings: settings)
        let health = HealthReporter(sites: configuration.sites)
        let publicDirectory = settings.publicDirectory
        let staticFiles = try StaticFiles.load(from: publicDirectory + "/static", commonHeaders: commonHeaders)
        var sites: [HostedSite] = []
        // User agents and QR codes do not depend on the site: one memory of each serves all sites.
        let clientClasses = ClientClassCache()
        let qrCodes = QRCodeImages()
        for site in configuration.sites {
            let pages = try SitePages(
                site: site, publicDirectory: publicDirectory, publicScheme: settings.publicScheme, commonHeaders: commonHeaders,
                trackedParameters: configuration.log.trackedParameters, clientClasses: clientClasses, qrCodes: qrCodes)
            sites.append(try HostedSite(site, cacheControl: settings.aasaCacheControl, pages: pages, commonHeaders: commonHeaders))
        }
        let responder = try LinkhostResponder(
            sites: sites, unknownHostPolicy: settings.unknownHost, health: health, staticFiles: staticFiles, commonHeaders: commonHeaders,
            ingestKeys: ingestKeys)
        let hitLogger = configuration.log.enabled ? try HitLogger(settings: configuration.log, sites: configuration.sites, logger: logger) : nil
        if let hitLogger {
            let writer = hitLogger.writer
            health.attach(log: { writer.status }, notes: hitLogger.hasherProblem.map { [$0] } ?? [])
        }
        self.hitLogger = hitLogger
        let metrics = ServingMetrics()
        self.metrics = metrics
        let observer: @Sendable (HTTPExchange, HitAnnotation?) -> Void = { exchange, annotation in
            metrics.observe(exchange, annotation: annotation)
            hitLogger?.observe(exchange, annotation: annotation)
        }

        let base = HTTPServerConfiguration(
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
        httpLogger[metadataKey: "listener"] = "http"
        if let tls = settings.tls {
            var secure = base
            secure.port = tls.port
            secure.tls = TLSCredentials(certificateChainPEM: tls.certificatePEM, privateKeyPEM: tls.keyPEM)
            var httpsLogger = logger
            httpsLogger[metadataKey: "listener"] = "https"
            https = HTTPServer(configuration: secure, logger: httpsLogger, responder: responder, completionObserver: observer)
            switch tls.plainHTTP {
            case .off:
                http = nil
                redirect = nil
            case .serve:
                http = HTTPServer(configuration: base, logger: httpLogger, responder: responder, completionObserver: observer)
                redirect = nil
            case .redirect:
                // The redirect port is filled in at start, once the HTTPS port is bound (it may be 0).
                let lateRedirect = LateRedirect(inner: responder, publicPort: tls.publicPort)
                http = HTTPServer(configuration: base, logger: httpLogger, responder: lateRedirect, completionObserver: observer)
                redirect = lateRedirect
            }
        } else {
            https = nil
            redirect = nil
            http = HTTPServer(configuration: base, logger: httpLogger, responder: responder, completionObserver: observer)
        }
        self.listeners = [http, https].compactMap { $0 }
        // The listeners own the responder, which owns `health`: health must not own the listeners
        // back, or a stopped server could never be freed. It reads them through weak references.
        health.attach { [weak plain = http, weak secure = https] in
            [plain, secure].compactMap { $0 }.map(\.statistics).reduce(.zero, +)
        }
        self.health = health
    }

    /// Binds and starts serving: HTTPS first, so redirects know its port.
    public func start() throws(HTTPServerError) {
        if let https {
            try https.start()
            redirect?.httpsPort.store(https.port, ordering: .releasing)
        }
        do {
            try http?.start()
        } catch {
            https?.stop()
            throw error
        }
    }

    /// The plain-HTTP port (0 when there is no plain-HTTP listener).
    public var port: Int { http?.port ?? 0 }

    /// The HTTPS port (0 without TLS).
    public var tlsPort: Int { https?.port ?? 0 }

    /// HTTP counters of all listeners together.
    public var statistics: HTTPServerStatistics {
        listeners.map(\.statistics).reduce(.zero, +)
    }

    /// Stops accepting, finishes requests in flight, closes everything, then writes every queued
    /// log row before returning (the listeners first: their last exchanges are still being logged).
    /// Returns the log writer's final status, `nil` without a log.
    @discardableResult
    public func stop() -> LogWriterStatus? {
        health.markDraining()
        http?.stop()
        https?.stop()
        return hitLogger?.writer.stop(timeout: .seconds(Double(configuration.server.shutdownGraceSeconds) + 5))
    }

    /// The hit log writer's counters and health (`nil` without a log).
    public var logStatus: LogWriterStatus? { hitLogger?.writer.status }

    /// The URLs the server can be reached at from this machine (`http://127.0.0.1:8080`, and
    /// `https://127.0.0.1:8443` with TLS); the wildcard addresses are shown as loopback.
    public var baseURLs: [String] {
        var urls: [String] = []
        if http != nil { urls.append("http://\(displayAddress):\(port)") }
        if https != nil { urls.append("https://\(displayAddress):\(tlsPort)") }
        return urls
    }

    /// The first of `baseURLs`.
    public var baseURL: String { baseURLs.first ?? "" }

    private var displayAddress: String {
        let address = configuration.server.listenAddress
        switch address {
        case "0.0.0.0": return "127.0.0.1"
        case "::": return "[::1]"
        default: return address.contains(":") ? "[\(address)]" : address
        }
    }
}
