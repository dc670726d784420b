import ACME
import CDNCheck
import CoreMetrics
import Foundation
import HTTPServing
import LinkLog
import Logging
import OrderedJSON
import Synchronization
import TLSCertificates

/// linkhost as a running server: the listeners — plain HTTP, HTTPS, or both (with plain HTTP
/// redirecting pages) — answering from the current serving set (sites, pages, AASA files), which
/// `reload` replaces whole while requests go on.
public final class LinkhostServer: Sendable {
    /// The configuration being served: the one the server started with, then each one a reload
    /// applied (with the listener, TLS, log and pid-file settings of the start, which need a restart;
    /// the certificate and key files are the ones the reload read).
    public var configuration: LinkhostConfiguration { slot.set.configuration }
    /// The configuration the listeners and the log were set up with.
    private let startConfiguration: LinkhostConfiguration
    private let slot: ServingSetSlot
    /// The plain-HTTP listener (`server.listen`), absent when `tls.http` is `off`.
    private let http: HTTPServer?
    /// The HTTPS listener (`server.tls`): started once, it reads each handshake's certificate
    /// from `certificates`, so a new certificate never restarts it.
    private let https: HTTPServer?
    /// What HTTPS serves, by host (`nil` without `server.tls`): the certificate files' pair for every
    /// host, or each site's ACME certificate for its hosts (the first site's for the rest).
    private let certificates: CertificateStore?
    /// The certificate and key files' text being served (`server.tls` with files), read again at
    /// each reload: when it changed, the new pair replaces the old in the store.
    private let servedFiles = Mutex<(certificate: String, key: String)?>(nil)
    private let health: HealthReporter
    /// Every listener that runs, for counters and health.
    let listeners: [HTTPServer]
    /// The HTTPS port that redirects from plain HTTP name, learnt once HTTPS is bound.
    private let redirect: RedirectPort?
    /// The hit log (absent when `log.enabled` is false).
    private let hitLogger: HitLogger?
    /// What the public listeners answered, recorded into `metricsFactory`.
    public let metrics: ServingMetrics
    /// Ingest rate limits, kept across reloads.
    private let ingestLimiter: TokenBucketLimiter
    /// Held for the whole of a reload, so reloads run one after another (two SIGHUPs in a row
    /// both apply, in order); the value is the generation of the serving set.
    private let reloading = Mutex<Int>(1)
    private let cdnWatch: CDNWatch
    /// The SQLite log's links as forms, for a reload's traffic check (`nil` without one).
    private let linkWindow: LinkWindowKeeper?
    /// What the listeners answer with (the plain one's redirects when HTTPS takes pages) and what they
    /// report finished exchanges to, kept for `answer(_:overTLS:)`.
    private let plainResponder: ServingSetResponder
    private let secureResponder: ServingSetResponder
    private let observer: @Sendable (HTTPExchange, ServedRequest?) -> Void
    private let answerObserver: (@Sendable (HTTPRequest, Int, inout ServedRequest) -> Void)?
    /// The server's memory of User-Agent classes: pages choose their variant by it, the log and the
    /// metrics store it; kept across reloads.
    private let clientClasses: ClientClassCache
    private let logger: Logger

    /// Prepares every site's responses. Throws if a page file or a prepared response is unusable.
    /// - Parameter ingestKeys: the keys apps report opens with (see `IngestKeys.fromEnvironment`);
    ///   sites without one answer `POST /v1/opens` with 404.
    /// - Parameter metricsFactory: the swift-metrics backend `ServingMetrics` records into; by
    ///   default the one the process bootstrapped (none, until it does).
    /// - Parameter passedSockets: listening sockets the service manager passed (socket activation);
    ///   each one serves instead of binding `server.listen` or `server.tls.port`.
    public init(
        configuration: LinkhostConfiguration, ingestKeys: IngestKeys = .none, metricsFactory: any MetricsFactory = MetricsSystem.factory,
        logger: Logger = Logger(label: "linkhost"), passedSockets: PassedSockets = .none, acmeChallenges: ACMEHTTP01Tokens? = nil
    ) throws {
        startConfiguration = configuration
        self.logger = logger
        let settings = configuration.server
        let hitLogger = configuration.log.enabled ? try HitLogger(settings: configuration.log, logger: logger) : nil
        self.hitLogger = hitLogger
        // Made first, so the health report holds them from the start: the listeners' counters and
        // the CDN check. The listeners own the responder, which owns the report; the report holds
        // only the counters, never the listeners, so a stopped server can be freed.
        let plainCounters = HTTPServerCounters()
        let secureCounters = HTTPServerCounters()
        let listening = (settings.tls?.plainHTTP == .off ? [] : [plainCounters]) + (settings.tls == nil ? [] : [secureCounters])
        let watch = CDNWatch(logger: logger)
        cdnWatch = watch
        linkWindow = configuration.log.enabled ? LinkWindowKeeper(logLocation: configuration.log.databasePath, logger: logger) : nil
        let health = HealthReporter(
            listeners: listening, log: hitLogger?.writer, logNotes: hitLogger?.hasherProblem.map { [$0] } ?? [], cdnWatch: watch)
        self.health = health
        let limiter = TokenBucketLimiter()
        ingestLimiter = limiter
        let clientClasses = ClientClassCache()
        self.clientClasses = clientClasses
        let slot = ServingSetSlot(
            try ServingSet(configuration: configuration, ingestKeys: ingestKeys, limiter: limiter, health: health, generation: 1, clientClasses: clientClasses))
        self.slot = slot
        let metrics = ServingMetrics(factory: metricsFactory, siteIDs: configuration.sites.map(\.id))
        self.metrics = metrics
        // Metrics and the log observe the same finished exchange and read the same facts; the
        // client class is classified here once when a page did not already, and only when wanted.
        // It is passed beside the facts, not written into them: the exchange still shares them, so
        // writing would copy them all, every request.
        let observer: @Sendable (HTTPExchange, ServedRequest?) -> Void = { exchange, answered in
            let served = answered ?? ServedRequest.answeredByServer(exchange)
            let clientClass =
                served.clientClass ?? (hitLogger != nil || served.kind == .aasa ? clientClasses.classify(exchange.request.headers["User-Agent"]) : nil)
            metrics.observe(exchange, served, clientClass: clientClass)
            hitLogger?.observe(exchange, served, clientClass: clientClass)
        }
        // The log's record is in its journal before the response is queued; the client class it
        // needs is worked out here then, and kept in the facts for the observer at the end.
        var answerObserver: (@Sendable (HTTPRequest, Int, inout ServedRequest) -> Void)?
        if let hitLogger {
            answerObserver = { (request: HTTPRequest, status: Int, served: inout ServedRequest) in
                if served.logged, served.clientClass == nil { served.clientClass = clientClasses.classify(request.headers["User-Agent"]) }
                hitLogger.answered(request, status: status, &served, clientClass: served.clientClass)
            }
        }
        self.answerObserver = answerObserver

        let base = HTTPServerConfiguration(
            address: settings.listenAddress,
            port: settings.port,
            threadCount: settings.threads == 0 ? HTTPServerConfiguration.defaultThreadCount : settings.threads,
            connectionLimit: settings.connectionLimit,
            perAddressConnectionLimit: settings.connectionsPerAddress,
            connectionTimeoutSeconds: settings.connectionTimeoutSeconds,
            headTimeoutSeconds: settings.headSeconds,
            minimumBodyBytesPerSecond: settings.bodyBytesPerSecond,
            connectionMemoryLimit: settings.connectionMemoryBytes,
            maximumBodySize: settings.requestBodyBytes,
            shutdownGraceSeconds: Double(settings.shutdownGraceSeconds),
            drainSeconds: Double(settings.drainSeconds),
            inheritedListener: passedSockets.http,
            trustedProxies: settings.trustedProxies
        )
        // The plain listener redirects pages to HTTPS when `tls.http` says so; the redirect port is
        // filled in at start, once the HTTPS port is bound (it may be 0).
        let redirectPort = settings.tls.flatMap { $0.plainHTTP == .redirect ? RedirectPort(publicPort: $0.publicPort) : nil }
        redirect = redirectPort
        var answering = ServingSetResponder(slot: slot, redirect: nil)
        var plain = ServingSetResponder(slot: slot, redirect: redirectPort, besideHTTPS: settings.tls != nil)
        plain.challenges = acmeChallenges.map(ACMEChallengeAnswer.init)
        if settings.tls == nil { answering.challenges = plain.challenges }
        let direct = answering
        self.observer = observer
        secureResponder = direct
        plainResponder = plain
        var httpLogger = logger
        httpLogger[metadataKey: "listener"] = "http"
        if let tls = settings.tls {
            var httpsLogger = logger
            httpsLogger[metadataKey: "listener"] = "https"
            // Files are read into the store at start; ACME certificates arrive through
            // `serveCertificate` (the stored ones before start, then each issued or renewed one).
            // With ACME and none stored yet, the listener runs and its handshakes fail until the
            // first is issued.
            let store = CertificateStore()
            certificates = store
            health.served.connect { [slot] in
                slot.set.configuration.sites.flatMap(\.hosts).compactMap { host in
                    store.certificate(forServerName: host)?.expiresAt.map { (host, $0) }
                }
            }
            var secure = base
            secure.port = tls.port
            secure.inheritedListener = passedSockets.https
            secure.tls = TLSCredentials(certificates: store, priorities: tls.priorities ?? TLSCredentials.intermediatePriorities)
            https = HTTPServer(
                configuration: secure, logger: httpsLogger, counters: secureCounters, responder: direct, completionObserver: observer,
                answerObserver: answerObserver)
            http =
                tls.plainHTTP == .off
                ? nil
                : HTTPServer(
                    configuration: base, logger: httpLogger, counters: plainCounters, responder: plain, completionObserver: observer,
                    answerObserver: answerObserver)
        } else {
            https = nil
            certificates = nil
            http = HTTPServer(
                configuration: base, logger: httpLogger, counters: plainCounters, responder: direct, completionObserver: observer,
                answerObserver: answerObserver)
        }
        self.listeners = [http, https].compactMap { $0 }
        warnAboutSignedFiles(in: configuration)
    }

    /// Answers `request` in this process, as a listener would, and reports the finished exchange to
    /// the metrics and the hit log as if its answer had been sent in full: the whole serving path
    /// but the socket, for tests that check what linkhost answers and logs in milliseconds.
    /// `overTLS` picks the HTTPS listener's answer (the plain one redirects pages when HTTPS is on).
    package func answer(_ request: HTTPRequest, overTLS: Bool = false) -> HTTPResponse {
        var answered = (overTLS ? secureResponder : plainResponder).respond(to: request)
        let response = answered.response
        answerObserver?(request, response.status, &answered.annotation)
        observer(HTTPExchange(request: request, status: response.status, bodySize: request.method == "HEAD" ? 0 : response.body.count), answered.annotation)
        return response
    }

    /// AASA040 for each site whose `aasa.file` is signed: the JSON inside is served, but the file
    /// should be replaced by it (said at start and at each reload that applies such a config).
    private func warnAboutSignedFiles(in configuration: LinkhostConfiguration) {
        for site in configuration.sites {
            guard let finding = site.aasa.unwrappedSignature else { continue }
            logger.warning(
                "site \(site.id): \(finding.code.rawValue) \(site.aasa.origin): \(finding.message); serving the JSON inside it (fix: \(finding.fix))")
        }
    }

    /// Binds and starts serving: HTTPS first, so redirects know its port. Starts the CDN check when
    /// `server.cdnCheck` is on.
    public func start() throws(HTTPServerError) {
        if let tls = startConfiguration.server.tls, tls.acme == nil {
            do throws(TLSCertificateError) {
                try serveCertificateFiles(certificate: tls.certificatePEM, key: tls.keyPEM)
            } catch {
                throw HTTPServerError.cannotStart("could not use the TLS certificate and key: \(error)")
            }
        }
        if let https {
            try https.start()
            redirect?.boundPort.store(https.port, ordering: .releasing)
        }
        do {
            try http?.start()
        } catch {
            https?.stop()
            throw error
        }
        cdnWatch.restart(with: startConfiguration.server.cdnCheck, targets: CDNTargets.all(in: startConfiguration).targets)
        linkWindow?.keep(startConfiguration.server.reload.checkAgainstLogDays > 0)
    }

    /// Reads the configuration again from `source` and serves it (see `reload(_:)`).
    @discardableResult
    public func reload(from source: ConfigurationSource) -> ReloadOutcome {
        reload(source: source.path) { () throws(ReloadFailure) in try source.load() }
    }

    /// Serves `configuration` from now on, if it can be: every page, template, string and static
    /// file is prepared first, and only then does the new set replace the old in one step. Requests
    /// already answering finish with the old set; no connection is touched. On any failure the old
    /// set keeps serving and the outcome says why.
    ///
    /// Settings that only a restart can apply (listeners, TLS, the log, the pid file; see
    /// `RestartSettings`) keep their running values and are named in the outcome and the log.
    /// Certificate and key files are read again: a changed pair serves from the next handshake on,
    /// and one that cannot be used refuses the reload (the old pair serves on).
    @discardableResult
    public func reload(_ configuration: LinkhostConfiguration, ingestKeys: IngestKeys = .none, source: String = "<given configuration>") -> ReloadOutcome {
        reload(source: source) { () throws(ReloadFailure) in (configuration, ingestKeys) }
    }

    private func reload(source: String, load: () throws(ReloadFailure) -> (LinkhostConfiguration, IngestKeys)) -> ReloadOutcome {
        let outcome = reloading.withLock { generation in
            let at = Date()
            let started = ContinuousClock.now
            var needsRestart: [RestartSetting] = []
            var changedAASA: [String] = []
            var failure: ReloadFailure?
            var linksCheck: ReloadLinksCheck?
            do throws(ReloadFailure) {
                guard !health.isDraining else { throw ReloadFailure("the server is stopping") }
                let (requested, ingestKeys) = try load()
                needsRestart = RestartSettings.changes(running: startConfiguration, requested: requested)
                // The links people used, under the files served now and under the new ones. The
                // serving config's settings decide, so a config cannot switch off its own check.
                let serving = slot.set.configuration
                linksCheck = ReloadLinksCheck.run(
                    serving: serving, requested: requested, now: LogRecord.currentTimeMilliseconds(), window: linkWindow)
                if let linksCheck, linksCheck.stopsAny, serving.server.reload.refuseIfLinksStopOpening {
                    throw ReloadFailure(
                        "\(linksCheck.summary); server.reload.refuseIfLinksStopOpening is true, so the new config is refused",
                        problems: [
                            ConfigurationProblem(
                                path: JSONPath.root.appending("sites"), problem: linksCheck.summary,
                                fix: "keep a rule or component for these links, or set server.reload.refuseIfLinksStopOpening to false and reload twice",
                                code: "LH010")
                        ])
                }
                let files = try certificateFilesToServe(requested)
                let set: ServingSet
                do {
                    set = try ServingSet(
                        configuration: requested.keepingRestartSettings(of: startConfiguration), ingestKeys: ingestKeys, limiter: ingestLimiter,
                        health: health, generation: generation + 1, clientClasses: clientClasses)
                } catch {
                    // Templates, page strings and static files are the public folder's.
                    throw ReloadFailure(
                        "\(error)",
                        problems: [
                            ConfigurationProblem(
                                path: JSONPath.root.appending("server").appending("publicDirectory"), problem: "\(error)",
                                fix: "correct the file in the public folder, then reload again")
                        ])
                }
                if let files { installCertificateFiles(files) }
                let previous = slot.replace(with: set)
                generation = set.generation
                changedAASA = set.sitesWithChangedAASA(comparedTo: previous)
            } catch {
                failure = error
                needsRestart = []
            }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            var outcome = ReloadOutcome(
                at: at, durationSeconds: seconds, source: source, failure: failure, needsRestart: needsRestart, changedAASA: changedAASA,
                generation: generation)
            outcome.linksCheck = linksCheck
            return outcome
        }
        health.reloads.record(outcome)
        log(outcome)
        if outcome.succeeded {
            linkWindow?.keep(configuration.server.reload.checkAgainstLogDays > 0)
            let settings = configuration.server.cdnCheck
            let targets = CDNTargets.all(in: configuration).targets
            if !outcome.changedAASA.isEmpty || settings != cdnWatch.status?.settings || targets.map(\.host) != cdnWatch.targets.map(\.host) {
                cdnWatch.restart(with: settings, targets: targets)
            }
        }
        return outcome
    }

    private func log(_ outcome: ReloadOutcome) {
        let milliseconds = Int((outcome.durationSeconds * 1000).rounded())
        if let check = outcome.linksCheck {
            if check.stopsAny || check.result == nil {
                logger.warning("reload of \(outcome.source): \(check.summary)")
            } else {
                logger.notice("reload of \(outcome.source): \(check.summary)")
            }
        }
        if let failure = outcome.failure {
            logger.error("reload of \(outcome.source) refused; still serving configuration \(outcome.generation): \(failure)")
            return
        }
        for setting in outcome.needsRestart {
            logger.warning("reload: \(setting) in \(outcome.source): needs a restart; the running value is kept until then")
        }
        let changes = outcome.changedAASA.isEmpty ? "no AASA file changed" : "AASA file changed for \(outcome.changedAASA.joined(separator: ", "))"
        logger.notice("reloaded \(outcome.source) in \(milliseconds) ms: configuration \(outcome.generation) serves; \(changes)")
        warnAboutSignedFiles(in: configuration)
    }

    /// Serves `chainPEM` and `keyPEM` for `hosts` from the next handshake on (an ACME certificate,
    /// issued or renewed): the store swaps it in, the listener keeps running, and connections that
    /// chose the old one keep it until they close. The first site's certificate is also the one for
    /// handshakes without SNI or for another name. Throws when the chain or key cannot be used
    /// (the old certificate keeps serving).
    public func serveCertificate(chainPEM: String, keyPEM: String, hosts: [String]) throws(TLSCertificateError) {
        guard let certificates, !health.isDraining else { return }
        let certificate = try ServedCertificate(chainPEM: chainPEM, keyPEM: keyPEM)
        let firstHosts = slot.set.configuration.sites.first?.hosts ?? []
        certificates.install(certificate, for: hosts, isDefault: hosts == firstHosts || certificates.defaultCertificate == nil)
        logger.notice("HTTPS serves the new certificate for \(hosts.joined(separator: ", "))")
    }

    /// Serves the certificate and key files' text for every host.
    private func serveCertificateFiles(certificate: String, key: String) throws(TLSCertificateError) {
        guard let certificates else { return }
        certificates.replaceAll(default: try ServedCertificate(chainPEM: certificate, keyPEM: key))
        servedFiles.withLock { $0 = (certificate, key) }
    }

    /// The certificate and key a reload of `requested` brings, parsed, when they are files that
    /// changed (`nil` when nothing is to change); throws with the path and GnuTLS's reason when the
    /// new pair cannot be used, so the reload is refused and the old certificate keeps serving.
    private func certificateFilesToServe(_ requested: LinkhostConfiguration) throws(ReloadFailure) -> (ServedCertificate, TLSSettings)? {
        guard let running = startConfiguration.server.tls, running.acme == nil, let new = requested.server.tls, new.acme == nil else { return nil }
        let served = servedFiles.withLock { $0 }
        guard served?.certificate != new.certificatePEM || served?.key != new.keyPEM else { return nil }
        do {
            return (try ServedCertificate(chainPEM: new.certificatePEM, keyPEM: new.keyPEM), new)
        } catch {
            let problem = "\(new.certificatePath) and \(new.keyPath): \(error)"
            throw ReloadFailure(
                "server.tls.certificate: \(problem); still serving the previous certificate",
                problems: [
                    ConfigurationProblem(
                        path: JSONPath.root.appending("server").appending("tls").appending("certificate"), problem: problem,
                        fix: "write the certificate chain (PEM, the server's certificate first) and its private key, then reload again")
                ])
        }
    }

    private func installCertificateFiles(_ files: (certificate: ServedCertificate, settings: TLSSettings)) {
        certificates?.replaceAll(default: files.certificate)
        servedFiles.withLock { $0 = (files.settings.certificatePEM, files.settings.keyPEM) }
        logger.notice("HTTPS serves the certificate in \(files.settings.certificatePath), read again, for every host")
    }

    /// Each site host's served certificate's expiry (Unix time), in config order: what a handshake
    /// naming the host gets now (a wildcard host, the default). Empty without HTTPS; a host with no
    /// certificate yet is left out.
    public var certificateExpiries: [(host: String, expiresAt: Int64)] {
        health.served.expiries
    }

    /// Whether HTTPS has a certificate to serve (with ACME, none until the first is stored or issued).
    public var servesCertificate: Bool { certificates.map { !$0.isEmpty } ?? false }

    /// TLS for another listener of this process (the admin one, `server.admin.tls`) that serves
    /// what HTTPS serves: the same store, so renewed ACME certificates and reread files reach it at
    /// once. A handshake there names no site's host (an address, `localhost`), so it gets the
    /// default: the first site's certificate. `nil` without `server.tls`.
    public var sharedTLSCredentials: TLSCredentials? {
        guard let certificates, let tls = startConfiguration.server.tls else { return nil }
        return TLSCredentials(certificates: certificates, priorities: tls.priorities ?? TLSCredentials.intermediatePriorities)
    }

    /// The certificates' health section and renewal (see `CertificateHealth`).
    public var certificateHealth: CertificateHealth { health.certificates }

    /// The plain-HTTP port (0 when there is no plain-HTTP listener).
    public var port: Int { http?.port ?? 0 }

    /// The HTTPS port (0 without TLS).
    public var tlsPort: Int { https?.port ?? 0 }

    /// HTTP counters of all listeners together.
    public var statistics: HTTPServerStatistics {
        listeners.map(\.statistics).reduce(.zero, +)
    }

    /// The detailed health report — status, version, sites, the last reload with its problems,
    /// HTTP counters, the hit log with its database and journal, the CDN check — as the admin
    /// listener's `/healthz` shows it. The public `/healthz` shows only its `status`.
    package var healthDetails: JSONValue { health.report(sites: slot.set.healthSites) }

    /// The CDN check's last result and schedule, `nil` while `server.cdnCheck` is off: for the
    /// health report, and for a metrics exporter.
    public var cdnCheckStatus: CDNCheckStatus? { cdnWatch.status }

    /// Waits until every row logged so far is written (for tests that read the log while serving).
    package func drainLog(timeout: Duration = .seconds(10)) -> Bool {
        hitLogger?.writer.drain(timeout: timeout) ?? true
    }

    /// Whether the link window has caught up with the log once (a reload answers its forms from then
    /// on); `false` without one.
    package var linkWindowIsCaughtUp: Bool { linkWindow?.isCaughtUp ?? false }

    /// The reloads so far (SIGHUP, `linkhost reload`), for a metrics exporter.
    public var reloadSummary: ReloadSummary { health.reloads.summary }

    /// Stops accepting, finishes requests in flight, closes everything, then writes every queued
    /// log row before returning (the listeners first: their last exchanges are still being logged).
    /// Returns the log writer's final status, `nil` without a log.
    @discardableResult
    public func stop() -> LogWriterStatus? {
        health.markDraining()
        cdnWatch.stop()
        linkWindow?.stop()
        http?.stop()
        https?.stop()
        return hitLogger?.writer.stop(timeout: .seconds(Double(startConfiguration.server.shutdownGraceSeconds) + 5))
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

    /// Whether the public listeners are bound to every address (`0.0.0.0` or `::`), so other
    /// machines can reach them, rather than to one; `listenAddress` is the address itself.
    public var listensOnAllAddresses: Bool { ["0.0.0.0", "::"].contains(listenAddress) }

    /// The address the public listeners are bound to: the first listener's socket once started
    /// (a passed socket's is the service manager's choice), the configured one before.
    public var listenAddress: String {
        let bound = listeners.first?.boundAddress ?? ""
        return bound.isEmpty ? startConfiguration.server.listenAddress : bound
    }

    /// Whether the public listeners serve sockets the service manager passed.
    public var servesPassedSockets: Bool { listeners.contains { $0.configuration.inheritedListener != nil } }

    /// The first of `baseURLs`.
    public var baseURL: String { baseURLs.first ?? "" }

    private var displayAddress: String {
        let address = listenAddress
        switch address {
        case "0.0.0.0": return "127.0.0.1"
        case "::": return "[::1]"
        default: return address.contains(":") ? "[\(address)]" : address
        }
    }
}

/// The HTTPS port that redirects from plain HTTP name: `server.tls.publicPort` when set, else the
/// port the HTTPS listener bound, learnt at start (it may have been configured as port 0).
final class RedirectPort: Sendable {
    let publicPort: Int?
    let boundPort = Atomic<Int>(0)

    init(publicPort: Int?) {
        self.publicPort = publicPort
    }

    var port: Int { publicPort ?? boundPort.load(ordering: .acquiring) }
}
