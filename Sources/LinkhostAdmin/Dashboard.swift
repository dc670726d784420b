import Foundation
import HTTPServing
import LinkLog
import LinkhostKit

/// The dashboard at `/`: a filter form (plain GET), totals, a per-day chart of page views, app opens
/// and AASA fetches, the funnel, the links that did not open the app (bypass opens by rule, in-app
/// browser and referrer, each with its likely reason), the top campaigns, sources, rules and
/// clients, and the last 50 hits, all rendered on the server from the rollups (and the hits for the
/// last 50), in English or German.
///
/// The top lists count one kind of hit, page views unless the form's `kind` says otherwise (`all`
/// for every kind): a page view also fetches static files, and crawlers fetch the AASA file, so
/// counting everything would bury the campaigns under rows no person caused. The last hits are every
/// kind unless the form names one. The totals, the chart and the funnel are per kind already and
/// ignore it.
///
/// Every logged value is attacker-controlled, so every one goes through Mustache's HTML escaping
/// (`{{…}}`) after its control characters are made visible; the one unescaped piece is the chart,
/// which `DashboardChart` escapes itself.
struct Dashboard: Sendable {
    /// Without `since`, the last week.
    static let defaultSince = "7d"
    /// Without `kind`, what a person means by a hit: a page view.
    static let defaultKind = HitKind.fallback.rawValue
    /// The `kind` value that counts every kind.
    static let everyKind = "all"
    /// The kinds in the form's order: the ones people ask about first.
    static let kindChoices: [HitKind] = [
        .fallback, .appOpen, .event, .aasa, .assetLinks, .staticFile, .health, .badLink, .notFound, .redirect, .methodNotAllowed, .unknownHost,
        .rejected,
    ]
    /// The chart has a point per day; longer ranges are cut to their last this many days.
    static let maximumChartDays = 400
    /// Rows in the last-hits table.
    static let recentRows = 50
    /// Values longer than this many characters are cut in their cell and open in full on a click.
    static let longValue = 12

    /// Groups of bypassed links read for the panel (link × in-app browser × referrer).
    static let bypassGroups = 500
    /// Rows in each of the panel's lists: the biggest causes (the API and `stats --funnel` have all).
    static let bypassRowsPerList = 5

    let api: LogAPI
    let pages: AdminPages
    let siteIDs: [String]
    /// The configuration serving now (after any reload): its AASA files tell a link no rule's
    /// component covers, and its hosts a referrer on the site's own domain.
    let configuration: @Sendable () -> LinkhostConfiguration

    func response(_ request: HTTPRequest) -> HTTPResponse {
        let started = ContinuousClock.now
        let language = Self.language(request)
        var context: [String: Any] = [
            "lang": language, "s": pages.strings(language), "version": LinkhostVersion.current,
        ]
        var status = 200
        // What the form echoes back comes from the URL: made printable like every logged value.
        let values = Dictionary(
            request.queryItems.map { ($0.name, TableFormatter.printable($0.value ?? "")) }, uniquingKeysWith: { first, _ in first })
        let kind = values["kind"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultKind
        context["filter"] = [
            "since": values["since"] ?? Self.defaultSince, "until": values["until"] ?? "", "rule": values["rule"] ?? "",
            "campaign": values["utm-campaign"] ?? "",
        ]
        context["kinds"] = ([Self.everyKind] + Self.kindChoices.map(\.rawValue)).map { value in
            ["value": value, "label": pages.text("kind_" + value, language), "selected": value == kind] as [String: Any]
        }
        context["kindLabel"] = pages.text("kind_" + kind, language)
        context["sites"] = siteIDs.map { ["id": $0, "selected": values["site"] == $0] as [String: Any] }
        do {
            try fill(&context, request: request, language: language)
        } catch let problem as HTTPProblem {
            status = problem.status
            context["problem"] = pages.text("bad_filter", language, ["problem": TableFormatter.printable(problem.detail)])
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
        let kinds = query.filter { $0.name == "kind" }
        let kindGiven = !kinds.isEmpty
        if kinds.isEmpty {
            query.append(HTTPQueryItem(name: "kind", value: Self.defaultKind))
        } else if kinds.count == 1, let kind = kinds[0].value {
            let allowed = [Self.everyKind] + Self.kindChoices.map(\.rawValue)
            guard allowed.contains(kind) else {
                throw HTTPProblem.badParameter("kind", "\"\(kind)\" is not a kind; allowed: \(allowed.joined(separator: ", "))")
            }
            if kind == Self.everyKind { query.removeAll { $0.name == "kind" } }
        }
        let parameters = try LogQueryParameters.read(
            query, extra: [], refused: ["limit": "the dashboard's tables have fixed sizes; use /api/v1/hits?limit=…"]
        ).get()
        let now = LogRecord.currentTimeMilliseconds()
        let filter = try parameters.filter(now: now, maximumLimit: 1).get()
        // The totals, the chart and the funnel count several kinds each, whatever the form's kind.
        var everyKind = filter
        everyKind.kind = nil
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
            var narrowed = everyKind
            narrowed.kind = kind.rawValue
            var byDay: [String: Int] = [:]
            if kind == .fallback {
                // Views as the funnel counts them: people's, not link previews' or crawlers'.
                for row in try reader.funnel(by: .day, everyKind) { byDay[row.key ?? ""] = row.views }
            } else {
                for row in try reader.stats(by: .day, narrowed) { byDay[row.key ?? ""] = row.hits }
            }
            let label = pages.text(key, language)
            series.append(DashboardChart.Series(name: name, label: label, counts: days.map { byDay[$0] ?? 0 }))
            totals.append(["series": name, "label": label, "value": grouped(byDay.values.reduce(0, +), language)])
        }
        context["totals"] = totals
        context["chart"] =
            DashboardChart(
                days: days, monthNames: pages.text("month_names", language).split(separator: " ").map(String.init), series: series,
                title: pages.text("chart_label", language), countText: { grouped($0, language) }
            ).svg()

        let funnel =
            try reader.funnel(by: nil, everyKind).first
            ?? FunnelRow(key: nil, views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0)
        // Each step after the first as a share of the views (none without views).
        func step(_ key: String, _ count: Int, shared: Bool = true) -> [String: Any] {
            var step: [String: Any] = ["label": pages.text(key, language), "value": grouped(count, language)]
            if shared, funnel.views > 0 {
                step["share"] = Self.percent(Double(count) * 100 / Double(funnel.views), decimalMark: pages.text("decimal_mark", language))
            }
            return step
        }
        context["funnel"] = [
            step("funnel_views", funnel.views, shared: false), step("funnel_open_clicks", funnel.openClicks),
            step("funnel_store_clicks", funnel.storeClicks), step("funnel_copies", funnel.copies), step("funnel_app_opens", funnel.appOpens),
            step("funnel_opens_after_view", funnel.opensAfterView), step("funnel_bypass_opens", funnel.bypassOpens),
            step("funnel_installs", funnel.installs),
        ]
        context["previewsText"] = pages.text("funnel_previews", language, ["count": grouped(funnel.previews, language)])
        var bypassFilter = everyKind
        bypassFilter.limit = Self.bypassGroups
        context["bypass"] = bypassPanel(try reader.bypassedLinks(bypassFilter), language: language)

        var tops: [[String: Any]] = []
        for (dimension, key) in [(StatsDimension.utmCampaign, "top_campaigns"), (.utmSource, "top_sources"), (.rule, "top_rules"), (.client, "top_clients")] {
            var top = filter
            top.limit = 10
            let rows = try reader.stats(by: dimension, top).map { row -> [String: Any] in
                let key: [String: Any] = row.key.map(Self.cell) ?? ["text": pages.text("none_value", language), "none": true]
                return ["key": key, "hits": grouped(row.hits, language)]
            }
            tops.append(["title": pages.text(key, language), "rows": rows])
        }
        context["tops"] = tops

        // The last hits are every kind of hit unless the form asks for one: a table titled hits
        // that showed page views alone hid the AASA fetches and app opens an operator looks for.
        var recentFilter = kindGiven ? filter : everyKind
        recentFilter.limit = Self.recentRows
        context["recentKindLabel"] = pages.text("kind_" + (kindGiven ? (kinds.first?.value ?? Self.defaultKind) : Self.everyKind), language)
        context["recent"] = try reader.rows(recentFilter).map { row -> [String: Any] in
            let kind = row.event.map { "\(row.kind) · \($0)" } ?? row.kind
            return [
                "time": row.timeText.prefix(19).replacingOccurrences(of: "T", with: " "), "kind": Self.cell(kind), "status": row.status,
                "statusClass": row.status >= 400 ? "error" : "",
                "link": Self.cell(row.host + row.path), "campaign": row.utmCampaign.map(Self.cell) ?? false,
                "source": row.utmSource.map(Self.cell) ?? false, "client": row.clientClass.map(Self.cell) ?? false,
                "referrer": row.referrer.map(Self.cell) ?? false, "agent": row.userAgent.map(Self.cell) ?? false,
            ]
        }
        // The export is what the table shows: every kind unless the form named one.
        let exportQuery = query.filter { kindGiven || $0.name != "kind" }.map { item in
            "\(item.name)=\((item.value ?? "").addingPercentEncoding(withAllowedCharacters: Self.queryValueCharacters) ?? "")"
        }.joined(separator: "&")
        context["exportCSV"] = "/api/v1/hits?format=csv&" + exportQuery
        context["exportNDJSON"] = "/api/v1/hits?format=ndjson&" + exportQuery
    }

    /// The "links that did not open the app" panel: bypass opens by rule, by in-app browser and by
    /// referrer host, each row with its likely reason. A rule whose logged links the served AASA
    /// file does not cover is a configuration bug and comes first, whatever its count.
    private func bypassPanel(_ bypassed: [BypassedLink], language: String) -> [String: Any] {
        let total = bypassed.reduce(0) { $0 + $1.link.hits }
        guard total > 0 else { return ["empty": true] }
        let configuration = configuration()
        let opens = TrafficCheck.opensApp(bypassed.map(\.link), under: configuration)
        struct Row {
            var key: String?
            var count = 0
            var reason: String
            var bug = false
        }
        // A reason most rows of a list share is said once, under the list's title; a row keeps a
        // reason of its own (a rule the file does not cover) beside it.
        func list(_ title: String, _ groups: [String: Row]) -> [String: Any] {
            let shown = groups.values.sorted { ($0.bug ? 1 : 0, $0.count, $1.key ?? "") > ($1.bug ? 1 : 0, $1.count, $0.key ?? "") }.prefix(
                Self.bypassRowsPerList)
            let repeated = Dictionary(grouping: shown, by: \.reason).filter { $0.value.count > 1 }.max { $0.value.count < $1.value.count }?.key
            let rows = shown.map { row -> [String: Any] in
                [
                    "key": row.key.map(Self.cell) ?? ["text": pages.text("none_value", language), "none": true], "count": grouped(row.count, language),
                    "reason": row.reason == repeated ? false : row.reason, "bug": row.bug,
                ]
            }
            return ["title": pages.text(title, language), "note": repeated.map { $0 as Any } ?? false, "rows": rows]
        }
        var rules: [String: Row] = [:]
        var apps: [String: Row] = [:]
        var referrers: [String: Row] = [:]
        for (index, bypass) in bypassed.enumerated() {
            let link = bypass.link
            let shown = link.host + link.path + (link.query.map { "?" + $0 } ?? "")
            let ruleKey = [link.siteID, link.rule].compactMap { $0 }.joined(separator: " ")
            var rule = rules[ruleKey] ?? Row(key: ruleKey.isEmpty ? nil : ruleKey, reason: pages.text("bypass_covered", language))
            rule.count += link.hits
            if opens[index] == false, !rule.bug {
                rule.bug = true
                rule.reason = pages.text(
                    "bypass_not_covered", language, ["example": TableFormatter.printable(shown.count > 120 ? shown.prefix(119) + "…" : shown)])
            }
            rules[ruleKey] = rule
            if let app = bypass.inApp {
                apps[app, default: Row(key: app, reason: pages.text("bypass_in_app", language))].count += link.hits
            }
            let host = bypass.referrerHost
            let siteHosts = configuration.sites.first { $0.id == link.siteID }?.hosts ?? []
            let reason =
                host == nil
                ? "bypass_no_referrer" : siteHosts.contains(host ?? "") ? "bypass_same_domain" : bypass.inApp != nil ? "bypass_in_app" : "bypass_referrer"
            referrers[host ?? "", default: Row(key: host, reason: pages.text(reason, language))].count += link.hits
        }
        var lists: [[String: Any]] = [list("bypass_by_rule", rules)]
        if !apps.isEmpty { lists.append(list("bypass_by_app", apps)) }
        lists.append(list("bypass_by_referrer", referrers))
        return ["total": grouped(total, language), "lists": lists]
    }

    /// A count as `language` writes it.
    private func grouped(_ count: Int, _ language: String) -> String {
        Self.grouped(count, separator: pages.text("digit_group", language))
    }

    private static let queryValueCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:")

    private static func floorDay(_ milliseconds: Int64) -> Int64 {
        let day: Int64 = 86_400_000
        return milliseconds >= 0 ? milliseconds / day : (milliseconds - day + 1) / day
    }

    /// A logged value for a table cell: whole (the stylesheet cuts it to its column and shows it in
    /// full on hover, or on a click when `long`), with control characters made visible, as the
    /// terminal table shows them.
    static func cell(_ value: String) -> [String: Any] {
        let text = TableFormatter.printable(value)
        return ["text": text, "long": text.count > longValue]
    }

    /// A share with one decimal (`12.5 %`, `12,5 %` with the decimal mark `,`).
    static func percent(_ value: Double, decimalMark: String) -> String {
        String(format: "%.1f %%", value).replacingOccurrences(of: ".", with: decimalMark)
    }

    /// A count with its digits grouped by threes (`12,345`, `12.345` with the separator `.`).
    static func grouped(_ count: Int, separator: String) -> String {
        let digits = Array(String(count.magnitude))
        var text = count < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += separator }
            text.append(digit)
        }
        return text
    }
}
