import CDNCheck
import HTTPServing
import LinkLog
import LinkhostKit
import Prometheus
import Synchronization

/// `GET /metrics`: what the public listeners answered (`ServingMetrics`, recorded into the
/// registry as it happens) and, set at each scrape from the server's state, its connections, the
/// hit log's writer, reloads, the CDN check, the admin listener's refusals and the build; in
/// Prometheus's text format with its naming conventions (`_total` for counters, base units: seconds).
package final class MetricsPage: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let read: @Sendable () -> MetricsReadings
    /// Held while a scrape sets its values and renders them, so two scrapes at once each render
    /// the values they set.
    private let scraped: Mutex<ScrapedSeries>

    /// - Parameter read: the server's state of this moment, called at each scrape.
    package init(metrics: PrometheusMetrics, read: @escaping @Sendable () -> MetricsReadings) {
        registry = metrics.registry
        self.read = read
        scraped = Mutex(ScrapedSeries(registry: metrics.registry))
    }

    package func response() -> HTTPResponse { response(to: read()) }

    package func response(to readings: MetricsReadings) -> HTTPResponse {
        let body = scraped.withLock { series in
            series.set(readings)
            return registry.emitToBuffer()
        }
        return HTTPResponse(status: 200, headers: AdminHeaders.with("text/plain; version=0.0.4; charset=utf-8"), body: body)
    }
}

/// What `/metrics` reads from the running server at each scrape.
package struct MetricsReadings: Sendable {
    package var listeners: HTTPServerStatistics
    /// The hit log's writer, `nil` without a log.
    package var log: LogWriterStatus?
    package var reloads: ReloadSummary
    /// The CDN check's last run, `nil` while the check is off or before its first run ends.
    package var cdnCheck: CDNCheckReport?
    /// Admin requests answered 401.
    package var unauthorized: Int
    /// Dashboard logins refused.
    package var loginFailures: Int
    /// Each site host's served TLS certificate's expiry (Unix time); empty without HTTPS.
    package var certificateExpiries: [(host: String, expiresAt: Int64)] = []

    package init(
        listeners: HTTPServerStatistics, log: LogWriterStatus?, reloads: ReloadSummary, cdnCheck: CDNCheckReport?, unauthorized: Int, loginFailures: Int
    ) {
        self.listeners = listeners
        self.log = log
        self.reloads = reloads
        self.cdnCheck = cdnCheck
        self.unauthorized = unauthorized
        self.loginFailures = loginFailures
    }

    init(server: LinkhostServer, authenticator: AdminAuthenticator) {
        self.init(
            listeners: server.statistics, log: server.logStatus, reloads: server.reloadSummary, cdnCheck: server.cdnCheckStatus?.latest,
            unauthorized: authenticator.refusalCount, loginFailures: authenticator.failedLoginCount)
        certificateExpiries = server.certificateExpiries
    }
}

/// The series set from `MetricsReadings`: registered the first time they apply (the log's once
/// there is a log, the CDN check's once a run has ended) and unregistered when they no longer do
/// (a host a reload removed), so the exposition shows what the server has now.
private struct ScrapedSeries {
    private let registry: PrometheusCollectorRegistry
    private let inFlight: Gauge
    private let connections: Gauge
    private let generation: Gauge
    private let reloadsApplied: Counter
    private let reloadsRefused: Counter
    private let lastReloadFailed: Gauge
    private let unauthorized: Counter
    private let loginFailures: Counter
    private var log: LogSeries?
    private var cdnStates: [CDNHostKey: Gauge] = [:]
    private var cdnAges: [CDNHostKey: Gauge] = [:]
    private var cdnLastRun: Gauge?
    private var certificateExpiries: [String: Gauge] = [:]

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        registry.makeGauge(
            descriptor: Self.describe("linkhost_build_info", "The running linkhost's version (always 1)."), labels: [("version", LinkhostVersion.current)]
        )
        .set(to: 1)
        inFlight = registry.makeGauge(descriptor: Self.describe("linkhost_http_requests_in_flight", "Requests being answered now."))
        connections = registry.makeGauge(descriptor: Self.describe("linkhost_http_connections_open", "Client connections open now."))
        generation = registry.makeGauge(
            descriptor: Self.describe("linkhost_config_generation", "The configuration in use: 1 at start, one more per applied reload."))
        let reloads = Self.describe("linkhost_config_reloads_total", "Reloads asked for (SIGHUP, linkhost reload), by result.")
        reloadsApplied = registry.makeCounter(descriptor: reloads, labels: [("result", "applied")])
        reloadsRefused = registry.makeCounter(descriptor: reloads, labels: [("result", "refused")])
        lastReloadFailed = registry.makeGauge(
            descriptor: Self.describe("linkhost_config_last_reload_failed", "1 when the last reload was refused (the old config still serves), else 0."))
        unauthorized = registry.makeCounter(
            descriptor: Self.describe("linkhost_admin_unauthorized_total", "Admin requests answered 401 (no or a wrong token or session)."))
        loginFailures = registry.makeCounter(
            descriptor: Self.describe("linkhost_admin_login_failures_total", "Dashboard logins refused (wrong token or too many tries)."))
    }

    static func describe(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    mutating func set(_ readings: MetricsReadings) {
        inFlight.set(readings.listeners.requestsInFlight)
        connections.set(readings.listeners.openConnections)
        generation.set(readings.reloads.generation)
        reloadsApplied.set(readings.reloads.applied)
        reloadsRefused.set(readings.reloads.refused)
        lastReloadFailed.set(readings.reloads.lastFailed ? 1 : 0)
        unauthorized.set(readings.unauthorized)
        loginFailures.set(readings.loginFailures)
        if let status = readings.log {
            if log == nil { log = LogSeries(registry: registry) }
            log?.set(status)
        }
        setCDNCheck(readings.cdnCheck)
        setCertificateExpiries(readings.certificateExpiries)
    }

    private mutating func setCertificateExpiries(_ expiries: [(host: String, expiresAt: Int64)]) {
        var gauges: [String: Gauge] = [:]
        for (host, expiresAt) in expiries {
            let gauge =
                certificateExpiries.removeValue(forKey: host)
                ?? registry.makeGauge(
                    descriptor: Self.describe(
                        "linkhost_tls_certificate_expiry_timestamp_seconds", "When the TLS certificate HTTPS serves for each host expires (Unix time)."),
                    labels: [("host", host)])
            gauge.set(to: Double(expiresAt))
            gauges[host] = gauge
        }
        // A host a reload removed, or one whose certificate is gone.
        for gauge in certificateExpiries.values { registry.unregisterGauge(gauge) }
        certificateExpiries = gauges
    }

    private mutating func setCDNCheck(_ report: CDNCheckReport?) {
        var states: [CDNHostKey: Gauge] = [:]
        var ages: [CDNHostKey: Gauge] = [:]
        for host in report?.hosts ?? [] {
            let key = CDNHostKey(site: host.siteID, host: host.host)
            let state =
                cdnStates.removeValue(forKey: key)
                ?? registry.makeGauge(
                    descriptor: Self.describe(
                        "linkhost_cdn_check_state",
                        "Apple's CDN copy of each host's AASA file at the last check: 0 in sync, 1 differs, 2 no copy, 3 not checked."),
                    labels: key.labels)
            state.set(host.state.metricValue)
            states[key] = state
            guard let age = host.age else { continue }
            let gauge =
                cdnAges.removeValue(forKey: key)
                ?? registry.makeGauge(
                    descriptor: Self.describe("linkhost_cdn_check_age_seconds", "The Age the CDN gave with its copy, where it gave one."), labels: key.labels)
            gauge.set(age)
            ages[key] = gauge
        }
        // What is left was in the last report but not in this one.
        for gauge in cdnStates.values { registry.unregisterGauge(gauge) }
        for gauge in cdnAges.values { registry.unregisterGauge(gauge) }
        cdnStates = states
        cdnAges = ages
        if let report {
            if cdnLastRun == nil {
                cdnLastRun = registry.makeGauge(
                    descriptor: Self.describe("linkhost_cdn_check_last_run_timestamp_seconds", "When the last CDN check ended (Unix time)."))
            }
            cdnLastRun?.set(to: report.checkedAt.timeIntervalSince1970)
        } else if let lastRun = cdnLastRun {
            registry.unregisterGauge(lastRun)
            cdnLastRun = nil
        }
    }
}

/// The hit log writer's series, registered once the server has a log.
private struct LogSeries {
    let queueDepth: Gauge
    let backlogSeconds: Gauge
    let journalUsed: Gauge
    let journalSize: Gauge
    let written: Counter
    let dropped: Counter
    let cutShort: Counter
    let unknown: Counter
    let damaged: Counter
    let replaced: Counter
    let failed: Counter
    let writeFailures: Gauge
    let healthy: Gauge

    init(registry: PrometheusCollectorRegistry) {
        func gauge(_ name: String, _ help: String) -> Gauge { registry.makeGauge(descriptor: ScrapedSeries.describe(name, help)) }
        func counter(_ name: String, _ help: String) -> Counter { registry.makeCounter(descriptor: ScrapedSeries.describe(name, help)) }
        queueDepth = gauge("linkhost_log_queue_depth", "Hit-log records in the journal not yet in the database (queries do not see them yet).")
        backlogSeconds = gauge("linkhost_log_backlog_seconds", "Age of the oldest hit-log record not yet in the database (0 when none is).")
        journalUsed = gauge("linkhost_log_journal_used_bytes", "Bytes of the hit journal not yet handed back (not durably in the database).")
        journalSize = gauge("linkhost_log_journal_size_bytes", "Bytes of records the hit journal holds at most.")
        written = counter("linkhost_log_rows_written_total", "Hit-log rows committed to the database.")
        dropped = counter("linkhost_log_rows_dropped_total", "Hit-log records the journal could not take (full, or its write failed).")
        cutShort = counter("linkhost_log_rows_cut_short_total", "Hit-log records whose response was not sent in full (they leave no row).")
        unknown = counter("linkhost_log_rows_outcome_unknown_total", "Hit-log rows written with their outcome unknown (the process ended first).")
        damaged = counter("linkhost_log_journal_damaged_total", "Stretches of the hit journal stepped over (holes a kill left, torn or corrupt records).")
        replaced = counter("linkhost_log_journal_replacements_total", "Hit journal files made anew after the one in use was deleted or truncated.")
        failed = counter("linkhost_log_rows_failed_total", "Hit-log records left in the journal at a stop, or refused after it.")
        writeFailures = gauge("linkhost_log_write_failures", "Failed write attempts in a row (0 while the database is healthy).")
        healthy = gauge("linkhost_log_healthy", "1 while the writer reaches its database, else 0.")
    }

    func set(_ status: LogWriterStatus) {
        queueDepth.set(status.pending)
        backlogSeconds.set(to: status.backlogSeconds)
        journalUsed.set(Int(status.journal.usedBytes))
        journalSize.set(Int(status.journal.ringSize))
        written.set(status.written)
        dropped.set(status.dropped)
        cutShort.set(status.cutShort)
        unknown.set(status.outcomeUnknown)
        damaged.set(status.skippedDamaged)
        replaced.set(status.journal.replacements)
        failed.set(status.abandonedAtStop + status.rejectedAfterStop)
        writeFailures.set(status.consecutiveFailures)
        healthy.set(status.isHealthy ? 1 : 0)
    }
}

/// A host of the CDN check, as its series are labelled.
private struct CDNHostKey: Hashable {
    let site: String
    let host: String

    var labels: [(String, String)] { [("site", site), ("host", host)] }
}

extension Gauge {
    fileprivate func set(_ value: Int) { set(to: Double(value)) }
}

extension Counter {
    /// Sets a counter to a total kept elsewhere (the writer's, the authenticator's), read at each
    /// scrape; such totals only grow, as a counter must.
    fileprivate func set(_ total: Int) {
        reset()
        increment(by: Int64(total))
    }
}
