import Foundation
import HTTPServing
import LinkLog
import LinkLogDatabases
import LinkhostKit
import Logging

/// The admin listener: the log API, the dashboard, the metrics and the detailed health of a running `LinkhostServer`, on
/// their own address and port (`server.admin`, loopback by default) — never on the public port,
/// and the public port never serves them. It runs only when an admin token is configured.
///
/// Event-driven, like the public listener, so idle connections cost no thread and cannot lock the
/// operator out (a thread per connection did, with 32 idle sockets). The cost: an answer that reads
/// the database holds one of its two worker threads meanwhile, so a long export slows other admin
/// requests on the same thread, never the public listener.
public final class AdminServer: Sendable {
    /// Worker threads of the admin listener.
    static let threadCount = 2

    private let http: HTTPServer
    /// What the listener answers with, kept for `answer(_:)`.
    private let responder: AdminResponder
    private let settings: AdminSettings
    private let secure: Bool

    /// Reads the admin files under `<public>/admin/`; throws with the file's name when one is unusable.
    /// - Parameter metrics: what `/metrics` shows: the registry whose factory `server` records into.
    /// - Parameter passedSocket: a listening socket the service manager passed for the admin
    ///   listener (named `admin`); it serves instead of binding `server.admin.listen`.
    public init(
        server: LinkhostServer, token: AdminToken, metrics: PrometheusMetrics, logger: Logger = Logger(label: "linkhost.admin"),
        passedSocket: Int32? = nil
    ) throws(AdminSetupError) {
        let configuration = server.configuration
        settings = configuration.server.admin
        let folder = configuration.server.publicDirectory + "/admin"
        let pages = try AdminPages(folder: folder)
        guard let openAPI = FileManager.default.contents(atPath: folder + "/openapi.json") else {
            throw AdminSetupError("cannot read the API description \(folder)/openapi.json")
        }
        let tls = settings.tls ? configuration.server.tls : nil
        secure = tls != nil
        let authenticator = AdminAuthenticator(token: token, sessionHours: settings.sessionHours, secure: secure)
        let log = configuration.log
        let database = log.enabled ? LogDatabaseLocator.database(at: log.databasePath, secretKeyFile: log.secretKeyFile, spoolFile: log.spoolFile) : nil
        var adminLogger = logger
        adminLogger[metadataKey: "listener"] = "admin"
        let api = LogAPI(database: database, logger: adminLogger)
        var responder = AdminResponder(
            authenticator: authenticator, pages: pages, api: api,
            dashboard: Dashboard(api: api, pages: pages, siteIDs: configuration.sites.map(\.id), configuration: { server.configuration }),
            metrics: MetricsPage(metrics: metrics) { MetricsReadings(server: server, authenticator: authenticator) }, openAPIDocument: Array(openAPI),
            healthDetails: { server.healthDetails })
        responder.renewCertificates = { server.certificateHealth.renew() }
        var listener = HTTPServerConfiguration(
            address: settings.listenAddress, port: settings.port, threadCount: Self.threadCount, connectionLimit: settings.connectionLimit,
            perAddressConnectionLimit: 0, connectionTimeoutSeconds: settings.connectionTimeoutSeconds, maximumBodySize: 4096,
            shutdownGraceSeconds: 5, drainSeconds: 0, inheritedListener: passedSocket, turbo: false, trustedProxies: configuration.server.trustedProxies)
        if tls != nil {
            // The HTTPS listener's certificates, not a copy read here: with ACME the first site's
            // certificate once issued (handshakes fail until then), with files each renewal a
            // reload reads.
            listener.tls = server.sharedTLSCredentials
        }
        self.responder = responder
        http = HTTPServer(configuration: listener, logger: adminLogger, responder: responder)
    }

    /// Answers `request` in this process, as the listener would, without a socket: for tests of
    /// what the admin listener answers (see `LinkhostServer.answer(_:overTLS:)`).
    package func answer(_ request: HTTPRequest) -> HTTPResponse {
        responder.respond(to: request).response
    }

    public func start() throws(HTTPServerError) { try http.start() }

    /// Stops accepting and ends the connections (an export in progress is cut).
    public func stop() { http.stop() }

    /// The port it listens on (the real one when configured with 0).
    public var port: Int { http.port }

    /// Where to open the dashboard from this machine.
    public var baseURL: String {
        let address = settings.listenAddress
        let shown = address == "0.0.0.0" ? "127.0.0.1" : address == "::" ? "[::1]" : address.contains(":") ? "[\(address)]" : address
        return "\(secure ? "https" : "http")://\(shown):\(port)"
    }
}
