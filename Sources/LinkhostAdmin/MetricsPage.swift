import CDNCheck
import Foundation
import HTTPServing
import LinkLog
import LinkhostKit

/// `GET /metrics`: what the public listeners answered, the hit log's writer, the admin listener's
/// refusals and the build, in Prometheus's text format with its naming conventions (`_total` for
/// counters, base units: seconds).
struct MetricsPage: Sendable {
    let server: LinkhostServer
    let authenticator: AdminAuthenticator

    func response() -> HTTPResponse {
        var out = PrometheusExposition()
        out.family("linkhost_build_info", .gauge, help: "The running linkhost's version (always 1).")
        out.sample("linkhost_build_info", [("version", LinkhostVersion.current)], 1)

        let snapshot = server.metrics.snapshot()
        out.family("linkhost_http_requests_total", .counter, help: "Requests the public listeners answered, by site, kind and status class.")
        for (labels, count) in snapshot.requests.sorted(by: { ($0.key.site, $0.key.kind, $0.key.statusClass) < ($1.key.site, $1.key.kind, $1.key.statusClass) })
        {
            out.sample("linkhost_http_requests_total", [("site", labels.site), ("kind", labels.kind), ("status_class", labels.statusClass)], count)
        }
        out.family("linkhost_http_request_duration_seconds", .histogram, help: "Time from a request's head to the end of its answer.")
        var cumulative = 0
        for (index, bound) in ServingMetrics.latencyBounds.enumerated() {
            cumulative += snapshot.latencyCounts[index]
            out.sample("linkhost_http_request_duration_seconds_bucket", [("le", PrometheusExposition.format(bound))], cumulative)
        }
        cumulative += snapshot.latencyCounts[ServingMetrics.latencyBounds.count]
        out.sample("linkhost_http_request_duration_seconds_bucket", [("le", "+Inf")], cumulative)
        out.sample("linkhost_http_request_duration_seconds_sum", [], snapshot.latencySumSeconds)
        out.sample("linkhost_http_request_duration_seconds_count", [], cumulative)

        let statistics = server.statistics
        out.family("linkhost_http_requests_in_flight", .gauge, help: "Requests being answered now.")
        out.sample("linkhost_http_requests_in_flight", [], statistics.requestsInFlight)
        out.family("linkhost_http_connections_open", .gauge, help: "Client connections open now.")
        out.sample("linkhost_http_connections_open", [], statistics.openConnections)

        out.family("linkhost_aasa_fetches_total", .counter, help: "apple-app-site-association answers (200 and 304), by client class.")
        for (client, count) in snapshot.aasaFetches.sorted(by: { $0.key < $1.key }) {
            out.sample("linkhost_aasa_fetches_total", [("client_class", client)], count)
        }
        out.family("linkhost_reports_total", .counter, help: "App-open (opens) and page-event (events) reports, accepted or rejected by reason.")
        for (labels, count) in snapshot.reports.sorted(by: {
            ($0.key.endpoint, $0.key.outcome, $0.key.reason) < ($1.key.endpoint, $1.key.outcome, $1.key.reason)
        }) {
            out.sample("linkhost_reports_total", [("endpoint", labels.endpoint), ("outcome", labels.outcome), ("reason", labels.reason)], count)
        }

        if let log = server.logStatus {
            out.family("linkhost_log_queue_depth", .gauge, help: "Hit-log rows waiting for the writer.")
            out.sample("linkhost_log_queue_depth", [], log.pending)
            out.family("linkhost_log_queue_capacity", .gauge, help: "Rows the writer's queue holds before it drops new ones.")
            out.sample("linkhost_log_queue_capacity", [], log.queueCapacity)
            out.family("linkhost_log_rows_written_total", .counter, help: "Hit-log rows committed to the database.")
            out.sample("linkhost_log_rows_written_total", [], log.written)
            out.family("linkhost_log_rows_dropped_total", .counter, help: "Hit-log rows refused because the writer's queue was full.")
            out.sample("linkhost_log_rows_dropped_total", [], log.dropped)
            out.family("linkhost_log_rows_failed_total", .counter, help: "Hit-log rows that could not be written (left at a stop, or after it).")
            out.sample("linkhost_log_rows_failed_total", [], log.abandonedAtStop + log.rejectedAfterStop)
            out.family("linkhost_log_write_failures", .gauge, help: "Failed write attempts in a row (0 while the database is healthy).")
            out.sample("linkhost_log_write_failures", [], log.consecutiveFailures)
            out.family("linkhost_log_healthy", .gauge, help: "1 while the writer reaches its database, else 0.")
            out.sample("linkhost_log_healthy", [], log.isHealthy ? 1 : 0)
        }

        let reloads = server.reloadSummary
        out.family("linkhost_config_generation", .gauge, help: "The configuration in use: 1 at start, one more per applied reload.")
        out.sample("linkhost_config_generation", [], reloads.generation)
        out.family("linkhost_config_reloads_total", .counter, help: "Reloads asked for (SIGHUP, linkhost reload), by result.")
        out.sample("linkhost_config_reloads_total", [("result", "applied")], reloads.applied)
        out.sample("linkhost_config_reloads_total", [("result", "refused")], reloads.refused)
        out.family("linkhost_config_last_reload_failed", .gauge, help: "1 when the last reload was refused (the old config still serves), else 0.")
        out.sample("linkhost_config_last_reload_failed", [], reloads.lastFailed ? 1 : 0)

        if let cdn = server.cdnCheckStatus, let latest = cdn.latest {
            out.family(
                "linkhost_cdn_check_state", .gauge,
                help: "Apple's CDN copy of each host's AASA file at the last check: 0 in sync, 1 differs, 2 no copy, 3 not checked.")
            for host in latest.hosts { out.sample("linkhost_cdn_check_state", [("site", host.siteID), ("host", host.host)], host.state.metricValue) }
            out.family("linkhost_cdn_check_age_seconds", .gauge, help: "The Age the CDN gave with its copy, where it gave one.")
            for host in latest.hosts {
                if let age = host.age { out.sample("linkhost_cdn_check_age_seconds", [("site", host.siteID), ("host", host.host)], age) }
            }
            out.family("linkhost_cdn_check_last_run_timestamp_seconds", .gauge, help: "When the last CDN check ended (Unix time).")
            out.sample("linkhost_cdn_check_last_run_timestamp_seconds", [], latest.checkedAt.timeIntervalSince1970)
        }

        out.family("linkhost_admin_unauthorized_total", .counter, help: "Admin requests answered 401 (no or a wrong token or session).")
        out.sample("linkhost_admin_unauthorized_total", [], authenticator.refusalCount)
        out.family("linkhost_admin_login_failures_total", .counter, help: "Dashboard logins refused (wrong token or too many tries).")
        out.sample("linkhost_admin_login_failures_total", [], authenticator.failedLoginCount)
        return HTTPResponse(status: 200, headers: AdminHeaders.with("text/plain; version=0.0.4; charset=utf-8"), body: Array(out.text.utf8))
    }
}
