import CDNCheck
import Foundation
import LinkhostAdmin
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// `/metrics` in Prometheus's format: checked by Debian's `promtool`, counting what was really sent,
/// and scraped by a real `prometheus` server started here.
@Suite("Admin listener: Prometheus metrics", .ownThread, .serialized)
struct MetricsTests {
    /// The path of `name`, or `nil` with the reason printed — a failure in CI, where scripts/test installs it.
    static func tool(_ name: String) -> String? {
        if let path = Tool.find(name) { return path }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("\(name) is missing; scripts/test installs Debian's prometheus package")
        } else {
            print("skipped: \(name) is not installed (Debian package prometheus; scripts/test installs it)")
        }
        return nil
    }

    /// Known traffic: 5 page views, 3 AASA fetches by Apple's bot and 1 by an iPhone's system, a
    /// page event accepted and one refused, and an app open refused (no ingest key: opens are off).
    static func sendTraffic(_ harness: AdminHarness) throws {
        for index in 0..<5 { _ = try harness.visit("/addfriend?code=METRIC\(index)&utm_campaign=metrics") }
        let aasa = "/.well-known/apple-app-site-association"
        for _ in 0..<3 { _ = try harness.publicRequest(aasa, host: "rowhni.com", headers: [("User-Agent", "AASA-Bot/1.0.0")]) }
        _ = try harness.publicRequest(aasa, host: "rowhni.com", headers: [("User-Agent", "swcd (unknown version) CFNetwork/1568.100.1 Darwin/24.0.0")])
        let json = [("Content-Type", "application/json"), ("Origin", "http://rowhni.com")]
        _ = try harness.publicRequest(
            "/v1/events", method: "POST", host: "rowhni.com", headers: json, body: Array(#"{"event":"open-app","path":"/addfriend?code=METRIC1"}"#.utf8))
        _ = try harness.publicRequest("/v1/events", method: "POST", host: "rowhni.com", headers: json, body: Array("{not json".utf8))
        _ = try harness.publicRequest("/v1/opens", method: "POST", host: "rowhni.com", headers: json, body: Array("{}".utf8))
        try harness.waitForRows(5 + 4 + 1)
    }

    /// `promtool check metrics` finds nothing to say about `metrics`, lint included.
    static func expectPromtoolAccepts(_ metrics: String, in folder: TemporaryDirectory) throws {
        guard let promtool = Self.tool("promtool") else { return }
        let file = try folder.write("metrics.txt", metrics)
        let checked = try ChildProcess.run(try Tool.path("sh"), ["-c", "\"$0\" check metrics < \"$1\"", promtool, file])
        #expect(checked.status == 0, "promtool: \(checked.output)\(checked.error)")
        #expect(checked.output.isEmpty && checked.error.isEmpty, "promtool lint findings: \(checked.output)\(checked.error)")
    }

    /// The value of the series whose line starts with `prefix` (name and labels).
    static func value(_ metrics: String, _ prefix: String) -> Double? {
        metrics.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func promtoolAcceptsTheMetricsAndTheyCountWhatWasSent() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        try Self.sendTraffic(harness)
        let response = try harness.admin("/metrics")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let metrics = response.text
        #expect(Self.value(metrics, #"linkhost_http_requests_total{site="rowhni",kind="fallback",status_class="2xx"}"#) == 5)
        #expect(Self.value(metrics, #"linkhost_http_requests_total{site="rowhni",kind="aasa",status_class="2xx"}"#) == 4)
        #expect(Self.value(metrics, #"linkhost_aasa_fetches_total{client_class="aasa-bot"}"#) == 3)
        #expect(Self.value(metrics, #"linkhost_aasa_fetches_total{client_class="apple-cfnetwork"}"#) == 1)
        #expect(Self.value(metrics, #"linkhost_reports_total{endpoint="events",outcome="accepted",reason=""}"#) == 1)
        #expect(Self.value(metrics, #"linkhost_reports_total{endpoint="events",outcome="rejected",reason="malformed_json"}"#) == 1)
        #expect(Self.value(metrics, #"linkhost_reports_total{endpoint="opens",outcome="rejected",reason="not_found"}"#) == 1)
        #expect(Self.value(metrics, "linkhost_http_request_duration_seconds_count") == 12)
        #expect(Self.value(metrics, #"linkhost_http_request_duration_seconds_bucket{le="+Inf"}"#) == 12)
        #expect(Self.value(metrics, "linkhost_log_rows_written_total") ?? 0 >= 10)
        #expect(Self.value(metrics, "linkhost_log_rows_dropped_total") == 0)
        #expect(metrics.contains(#"linkhost_build_info{version=""#))

        try Self.expectPromtoolAccepts(metrics, in: harness.folder)
    }

    /// The values read at each scrape, set in-process from a server that was never started: its
    /// reloads and log, a CDN check run here (against a CDN that cannot be reached, so every host
    /// is "not checked"), and the admin listener's refusals; a later scrape follows them.
    @Test func reloadsTheCDNCheckTheLogAndRefusalsAreInTheMetrics() async throws {
        let folder = try TemporaryDirectory("linkhost-metrics")
        let server = try LinkhostServer(configuration: try AdminHarness.configuration(in: folder))
        defer { server.stop() }
        #expect(server.reload(server.configuration).succeeded)
        let broken = try folder.write("broken.json", "{\"sites\": [")
        #expect(!server.reload(from: ConfigurationSource(path: broken)).succeeded)
        let checker = CDNChecker(base: "http://127.0.0.1:\(try FreePort.find())", timeoutSeconds: 2)
        let report = await checker.check(CDNTargets.all(in: server.configuration).targets)

        var scraped = MetricsReadings(
            listeners: server.statistics, log: server.logStatus, reloads: server.reloadSummary, cdnCheck: report, unauthorized: 3, loginFailures: 2)
        scraped.certificateExpiries = [("rowhni.com", 1_900_000_000), ("forums.somethingawful.com", 1_900_086_400)]
        let readings = scraped
        let page = MetricsPage(metrics: PrometheusMetrics()) { readings }
        let metrics = page.response().bodyText
        #expect(Self.value(metrics, "linkhost_config_generation") == 2)
        #expect(Self.value(metrics, #"linkhost_config_reloads_total{result="applied"}"#) == 1)
        #expect(Self.value(metrics, #"linkhost_config_reloads_total{result="refused"}"#) == 1)
        #expect(Self.value(metrics, "linkhost_config_last_reload_failed") == 1)
        for (site, host) in [("rowhni", "rowhni.com"), ("awful", "forums.somethingawful.com"), ("awful", "archives.somethingawful.com")] {
            #expect(Self.value(metrics, #"linkhost_cdn_check_state{site="\#(site)",host="\#(host)"}"#) == 3, "\(host)")
        }
        let checkedAt = try #require(Self.value(metrics, "linkhost_cdn_check_last_run_timestamp_seconds"))
        #expect(abs(checkedAt - Date().timeIntervalSince1970) < 120)
        #expect(Self.value(metrics, "linkhost_log_healthy") == 1)
        #expect(Self.value(metrics, "linkhost_log_journal_size_bytes") == Double(try #require(server.logStatus).journal.ringSize))
        #expect(Self.value(metrics, "linkhost_log_rows_dropped_total") == 0)
        #expect(Self.value(metrics, "linkhost_log_rows_outcome_unknown_total") == 0)
        #expect(Self.value(metrics, "linkhost_admin_unauthorized_total") == 3)
        #expect(Self.value(metrics, "linkhost_admin_login_failures_total") == 2)
        #expect(Self.value(metrics, "linkhost_http_connections_open") == 0)
        #expect(Self.value(metrics, #"linkhost_tls_certificate_expiry_timestamp_seconds{host="rowhni.com"}"#) == 1_900_000_000)
        #expect(Self.value(metrics, #"linkhost_tls_certificate_expiry_timestamp_seconds{host="forums.somethingawful.com"}"#) == 1_900_086_400)
        try Self.expectPromtoolAccepts(metrics, in: folder)

        // The check turned off (a reload can do that) takes its series away; the totals move on.
        var next = readings
        next.cdnCheck = nil
        next.unauthorized = 5
        next.certificateExpiries = [("rowhni.com", 1_900_500_000)]
        let later = page.response(to: next).bodyText
        #expect(!later.contains("linkhost_cdn_check"), "\(later)")
        // A renewed certificate moves its host's series; a host no longer served loses its own.
        #expect(Self.value(later, #"linkhost_tls_certificate_expiry_timestamp_seconds{host="rowhni.com"}"#) == 1_900_500_000)
        #expect(!later.contains(#"expiry_timestamp_seconds{host="forums.somethingawful.com"}"#), "\(later)")
        #expect(Self.value(later, "linkhost_admin_unauthorized_total") == 5)
        #expect(Self.value(later, "linkhost_admin_login_failures_total") == 2)
        try Self.expectPromtoolAccepts(later, in: folder)
    }

    @Test func aPrometheusServerScrapesTheCountersWithTheToken() async throws {
        guard let prometheus = Self.tool("prometheus") else { return }
        let harness = try AdminHarness()
        defer { harness.stop() }
        try Self.sendTraffic(harness)
        let tokenFile = try harness.folder.write("prometheus-token", AdminHarness.token)
        let port = try FreePort.find()
        let config = try harness.folder.write(
            "prometheus.yml",
            """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: linkhost
                authorization:
                  credentials_file: \(tokenFile)
                static_configs:
                  - targets: ["127.0.0.1:\(harness.admin.port)"]
            """)
        let server = try ChildProcess(
            prometheus,
            ["--config.file=\(config)", "--storage.tsdb.path=\(harness.folder.path)/tsdb", "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn"])
        defer {
            server.send(signal: SIGTERM)
            if server.waitForExit(timeoutSeconds: 30) == nil {
                server.send(signal: SIGKILL)
                _ = server.waitForExit(timeoutSeconds: 10)
            }
        }
        // Prometheus scrapes on its own clock (every second here) and says nothing when it does:
        // its query API is asked until it has the value, for 90 s at most.
        let query = "linkhost_http_requests_total%7Bkind%3D%22fallback%22%7D"
        var seen: String?
        await waitUntil(timeoutSeconds: 90) {
            if let answer = try? RawHTTPClient(port: port).request("GET", "/api/v1/query?query=\(query)", headers: [("Connection", "close")]),
                answer.status == 200, let result = try? JSONParser().parse(answer.body)["data"]?["result"]?.arrayElements?.first
            {
                seen = result["value"]?.arrayElements?.last?.stringValue
            }
            return seen == "5"
        }
        #expect(seen == "5", "Prometheus's query answered \(seen ?? "nothing"); its log: \(server.standardError.suffix(2000))")
        let up = try RawHTTPClient(port: port).request("GET", "/api/v1/query?query=up", headers: [("Connection", "close")])
        #expect(try JSONParser().parse(up.body)["data"]?["result"]?.arrayElements?.first?["value"]?.arrayElements?.last == "1")
    }
}
