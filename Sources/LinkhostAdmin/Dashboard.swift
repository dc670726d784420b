import Foundation
import HTTPServing
import LinkLog
import LinkhostKit

/// The dashboard at `/`: a filter form (plain GET), totals, a per-day chart of page views, app opens
/// and AASA fetches, the funnel, the top campaigns, sources, rules and clients, and the last 50 hits,
/// all rendered on the server from the rollups (and the hits for the last 50), in English or German.
/// Every logged value is attacker-controlled, so every one goes through Mustache's HTML escaping
/// (`{{…}}`); the one unescaped piece is the chart, which `DashboardChart` escapes itself.
struct Dashboard: Sendable {
    /// Without `since`, the last week.
    static let defaultSince = "7d"
    /// The chart has a point per day; longer ranges are cut to their last this many days.
    static let maximumChartDays = 400

    let api: LogAPI
    let pages: AdminPages
    let siteIDs: [String]

    func response(_ request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        let language = Self.language(request)
        var context: [String: Any] = [
            "lang": language, "s": pages.strings(language), "version": LinkhostVersion.current,
        ]
        var status = 200
        let values = Dictionary(request.queryItems.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        context["filter"] = [
            "since": values["since"] ?? Self.defaultSince, "until": values["until"] ?? "", "rule": values["rule"] ?? "",
            "campaign": values["utm-campaign"] ?? "",
        ]
        context["sites"] = siteIDs.map { ["id": $0, "selected": values["site"] == $0] as [String: Any] }
        do {
            try fill(&context, request: request, language: language)
        } catch let problem as HTTPProblem {
            status = problem.status
            context["problem"] = pages.text("bad_filter", language, ["problem": problem.detail])
        } catch {
            status = 500
            api.logger.error("admin dashboard: reading the log failed: \(error)")
            context["problem"] = pages.text("bad_filter", language, ["problem": "the log could not be read"])
        }
        let elapsed = ContinuousClock.now - started
        context["renderMilliseconds"] = String(format: "%.1f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        return HTTPResponse(status: status, headers: AdminHeaders.html, body: Array(pages.render("dashboard", context).utf8))
    }

    /// The page's language: `?lang=` when it names one, else `Accept-Language`, else English.
    static func language(_ request: HTTPRequest) -> String {
        if let asked = request.queryValue("lang"), AdminPages.languages.contains(asked) { return asked }
        return LanguageNegotiation.choose(request.headers["Accept-Language"], available: AdminPages.languages, defaultLanguage: "en")
    }

    private func fill(_ context: inout [String: Any], request: HTTPRequest, language: String) throws {
        // Empty form fields mean "no filter"; the form always sends them.
        var query = request.queryItems.filter { !($0.value ?? "").isEmpty && $0.name != "lang" }
        if !query.contains(where: { $0.name == "since" }) { query.append(HTTPQueryItem(name: "since", value: Self.defaultSince)) }
        let parameters = try LogQueryParameters.read(
            query, extra: [],
            refused: [
                "kind": "the dashboard shows every kind; use /api/v1/stats?by=kind or /api/v1/hits?kind=…",
                "limit": "the dashboard's tables have fixed sizes; use /api/v1/hits?limit=…",
            ]
        ).get()
        let now = LogRecord.currentTimeMilliseconds()
        let filter = try parameters.filter(now: now, maximumLimit: 1).get()
        let reader = try api.openReader()
        let since = filter.since ?? now
        let until = min(filter.until ?? now, now)
        context["rangeText"] = pages.text(
            "range", language,
            [
                "since": UTCCalendar.timestampText(milliseconds: since).prefix(16).replacingOccurrences(of: "T", with: " "),
                "until": UTCCalendar.timestampText(milliseconds: until).prefix(16).replacingOccurrences(of: "T", with: " "),
            ])

        // Per-day counts of the three series, zero days included.
        let firstDay = max(Self.floorDay(since), Self.floorDay(until) - Int64(Self.maximumChartDays - 1))
        let lastDay = max(firstDay, Self.floorDay(max(since, until - 1)))
        let days = (firstDay...lastDay).map { UTCCalendar.dateText(daysSinceEpoch: $0) }
        var series: [DashboardChart.Series] = []
        var totals: [[String: Any]] = []
        for (name, kind, key) in [("views", HitKind.fallback, "views"), ("opens", HitKind.appOpen, "app_opens"), ("aasa", HitKind.aasa, "aasa_fetches")] {
            var narrowed = filter
            narrowed.kind = kind.rawValue
            var byDay: [String: Int] = [:]
            for row in try reader.stats(by: .day, narrowed) { byDay[row.key ?? ""] = row.hits }
            let label = pages.text(key, language)
            series.append(DashboardChart.Series(name: name, label: label, counts: days.map { byDay[$0] ?? 0 }))
            totals.append(["series": name, "label": label, "value": byDay.values.reduce(0, +)])
        }
        context["totals"] = totals
        context["chart"] = DashboardChart(days: days, series: series, title: pages.text("chart_label", language)).svg()

        let funnel =
            try reader.funnel(by: nil, filter).first ?? FunnelRow(key: nil, views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0)
        func share(_ count: Int) -> String { funnel.views == 0 ? "" : String(format: "%.1f %%", Double(count) * 100 / Double(funnel.views)) }
        context["funnel"] =
            [
                ["label": pages.text("funnel_views", language), "value": funnel.views, "share": ""],
                ["label": pages.text("funnel_open_clicks", language), "value": funnel.openClicks, "share": share(funnel.openClicks)],
                ["label": pages.text("funnel_store_clicks", language), "value": funnel.storeClicks, "share": share(funnel.storeClicks)],
                ["label": pages.text("funnel_copies", language), "value": funnel.copies, "share": share(funnel.copies)],
                ["label": pages.text("funnel_app_opens", language), "value": funnel.appOpens, "share": share(funnel.appOpens)],
                ["label": pages.text("funnel_opens_after_view", language), "value": funnel.opensAfterView, "share": share(funnel.opensAfterView)],
            ] as [[String: Any]]

        var tops: [[String: Any]] = []
        for (dimension, key) in [(StatsDimension.utmCampaign, "top_campaigns"), (.utmSource, "top_sources"), (.rule, "top_rules"), (.client, "top_clients")] {
            var top = filter
            top.limit = 10
            let rows = try reader.stats(by: dimension, top).map { ["key": $0.key ?? StatsRow.noneKey, "hits": $0.hits] as [String: Any] }
            tops.append(["title": pages.text(key, language), "rows": rows])
        }
        context["tops"] = tops

        var recentFilter = filter
        recentFilter.limit = 50
        context["recent"] = try reader.rows(recentFilter).map { row -> [String: Any] in
            [
                "time": row.timeText.prefix(19).replacingOccurrences(of: "T", with: " "), "kind": row.kind, "status": row.status, "host": row.host,
                "path": row.path, "campaign": row.utmCampaign ?? "", "source": row.utmSource ?? "", "client": row.clientClass ?? "",
                "referrer": Self.cut(row.referrer ?? ""), "agent": Self.cut(row.userAgent ?? ""),
            ]
        }
        let exportQuery = query.map { item in
            "\(item.name)=\((item.value ?? "").addingPercentEncoding(withAllowedCharacters: Self.queryValueCharacters) ?? "")"
        }.joined(separator: "&")
        context["exportCSV"] = "/api/v1/hits?format=csv&" + exportQuery
        context["exportNDJSON"] = "/api/v1/hits?format=ndjson&" + exportQuery
    }

    private static let queryValueCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:")

    private static func floorDay(_ milliseconds: Int64) -> Int64 {
        let day: Int64 = 86_400_000
        return milliseconds >= 0 ? milliseconds / day : (milliseconds - day + 1) / day
    }

    /// Long logged values are cut for the table (the export has them whole).
    private static func cut(_ text: String) -> String {
        text.count > 120 ? String(text.prefix(119)) + "…" : text
    }
}
