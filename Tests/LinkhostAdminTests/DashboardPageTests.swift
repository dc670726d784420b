import Foundation
import HTTPServing
import LinkLog
import LinkLogSQLite
import LinkhostKit
import Logging
import TestSupport
import Testing

@testable import LinkhostAdmin

/// The dashboard's HTML as the server renders it, in-process over a busy sample log: what the top
/// lists count, the kind field, the chart's day labels, and the sign-in page's prompt.
@Suite("Admin dashboard page")
struct DashboardPageTests {
    /// A dashboard over the sample log in a temporary folder.
    final class Fixture {
        let folder: TemporaryDirectory
        let now: Int64
        let sample: DashboardSampleLog
        let dashboard: Dashboard
        let pages: AdminPages

        init() throws {
            folder = try TemporaryDirectory("linkhost-dashboard")
            now = LogRecord.currentTimeMilliseconds()
            sample = DashboardSampleLog(now: now, visits: 200)
            let path = folder.path + "/log.sqlite"
            try sample.write(to: path)
            pages = try AdminPages(folder: ProjectPaths.root + "/Public/admin")
            let api = LogAPI(database: SQLiteLogDatabase(path: path), logger: Logger(label: "test"))
            let configuration = try ConfigurationLoader.load(path: ProjectPaths.shippedConfig)
            dashboard = Dashboard(api: api, pages: pages, siteIDs: ["rowhni"], configuration: { configuration })
        }

        func page(_ query: String = "", language: String = "en") -> (status: Int, html: String) {
            let request = HTTPRequest(method: "GET", target: "/" + query, headers: ["Accept-Language": language])
            let response = dashboard.response(request)
            return (response.status, String(decoding: response.body, as: UTF8.self))
        }

        /// The rows the log holds of `kind` (`nil`: every kind), counted by `key`, largest first.
        func counts(kind: String?, _ key: (LogRecord) -> String?) -> [Int] {
            var counts: [String: Int] = [:]
            for record in sample.records where kind == nil || record.kind == kind {
                counts[key(record) ?? "\u{0}none", default: 0] += 1
            }
            return counts.values.sorted(by: >)
        }
    }

    /// The counts in the top list titled `title`, in page order.
    static func topCounts(_ html: String, _ title: String) -> [Int] {
        guard let start = html.range(of: "<h2>\(title) ") else { return [] }
        let section = html[start.upperBound...]
        let end = section.range(of: "</section>")?.lowerBound ?? section.endIndex
        return section[..<end].components(separatedBy: "<td class=\"number\">").dropFirst().compactMap { cell in
            Int(cell.prefix { $0 != "<" }.filter(\.isNumber))
        }
    }

    @Test func topListsCountPageViewsByDefaultAndTheChosenKindOtherwise() throws {
        let fixture = try Fixture()
        let (status, html) = fixture.page()
        #expect(status == 200)
        let campaigns = { (record: LogRecord) in record.utmCampaign }
        let sources = { (record: LogRecord) in record.utmSource }
        // The static files, clicks, AASA fetches and health checks outnumber the page views; by
        // default none of them is counted.
        #expect(fixture.counts(kind: nil, campaigns).first ?? 0 > 2 * (fixture.counts(kind: "fallback", campaigns).first ?? 0))
        #expect(Self.topCounts(html, "Top campaigns") == Array(fixture.counts(kind: "fallback", campaigns).prefix(10)))
        #expect(Self.topCounts(html, "Top sources") == Array(fixture.counts(kind: "fallback", sources).prefix(10)))
        #expect(Self.topCounts(html, "Top rules") == Array(fixture.counts(kind: "fallback") { $0.rule }.prefix(10)))
        #expect(Self.topCounts(html, "Clients") == Array(fixture.counts(kind: "fallback") { $0.clientClass }.prefix(10)))

        let everything = fixture.page("?kind=all").html
        #expect(Self.topCounts(everything, "Top campaigns") == Array(fixture.counts(kind: nil, campaigns).prefix(10)))
        let fetches = fixture.page("?kind=aasa").html
        #expect(Self.topCounts(fetches, "Top campaigns") == fixture.counts(kind: "aasa", campaigns))
        #expect(Self.topCounts(fetches, "Clients") == fixture.counts(kind: "aasa") { $0.clientClass })
        // The tag on each list says what it counts.
        #expect(html.contains("Top campaigns <span class=\"tag\">Page views</span>"))
        #expect(fetches.contains("Top campaigns <span class=\"tag\">AASA fetches</span>"))
    }

    @Test func previewsAreCountedApartAndAppOpensByCampaignAgreeWithTheFunnel() throws {
        let fixture = try Fixture()
        let reader = try LogReader(databasePath: fixture.folder.path + "/log.sqlite")
        let since = LogFilter(since: fixture.now - 7 * 86_400_000, until: fixture.now)
        let funnel = try #require(try reader.funnel(by: nil, since).first)
        let html = fixture.page().html
        #expect(html.contains("not counted as views: \(funnel.previews)"), "\(funnel)")
        // The issue's symptom: the top campaigns for app opens and the funnel's app_opens by campaign
        // credited a paired open to different campaigns.
        let opens = try reader.funnel(by: .utmCampaign, since).map(\.appOpens).filter { $0 > 0 }.sorted(by: >)
        #expect(Self.topCounts(fixture.page("?kind=app_open").html, "Top campaigns") == Array(opens.prefix(10)))
        #expect(funnel.previews > 0 && funnel.opensAfterView > 0, "the sample must have previews and paired opens: \(funnel)")
    }

    @Test func theKindFieldOffersEveryKindKeepsTheChoiceAndFiltersTheLastHits() throws {
        let fixture = try Fixture()
        let html = fixture.page().html
        let select = try #require(html.range(of: "<select name=\"kind\">").map { html[$0.lowerBound...].prefix { $0 != "\n" } })
        for kind in ["all"] + Dashboard.kindChoices.map(\.rawValue) {
            #expect(select.contains("<option value=\"\(kind)\""), "\(kind)")
        }
        #expect(Dashboard.kindChoices.count == Set(Dashboard.kindChoices).count)
        #expect(Set(Dashboard.kindChoices) == Set(HitKind.allCases), "every kind the server logs is offered")
        #expect(select.contains("<option value=\"fallback\" selected>Page views</option>"))
        #expect(select.components(separatedBy: " selected").count == 2, "one choice")
        // The top lists count page views by default; the last hits are every kind unless one is asked for.
        let newest = fixture.sample.records.suffix(Dashboard.recentRows).map { record in record.event.map { "\(record.kind) · \($0)" } ?? record.kind }
        #expect(Self.kindsOfLastHits(html).sorted() == newest.sorted())
        #expect(html.contains("/api/v1/hits?format=csv&amp;since=7d\""), "the export is what the table shows")
        let views = fixture.page("?kind=fallback").html
        #expect(Self.kindsOfLastHits(views) == Array(repeating: "fallback", count: Dashboard.recentRows))
        #expect(views.contains("/api/v1/hits?format=csv&amp;kind=fallback&amp;since=7d\""), "the export is what the table shows")

        let opens = fixture.page("?kind=app_open&site=").html
        #expect(opens.contains("<option value=\"app_open\" selected>"))
        let openKinds = Set(Self.kindsOfLastHits(opens))
        #expect(!openKinds.isEmpty && openKinds.allSatisfy { $0.hasPrefix("app_open · ") }, "\(openKinds)")
        let all = fixture.page("?kind=all").html
        #expect(all.contains("<option value=\"all\" selected>All kinds</option>"))
        // Rows logged in the same millisecond may come in either order: compare the kinds, sorted.
        #expect(Self.kindsOfLastHits(all).sorted() == newest.sorted())
        #expect(!all.contains("kind=all"), "every kind is no kind filter in the export")
        let german = fixture.page("?kind=aasa", language: "de").html
        #expect(german.contains("<option value=\"aasa\" selected>AASA-Abrufe</option>"))

        let wrong = fixture.page("?kind=view")
        #expect(wrong.status == 400)
        #expect(wrong.html.contains("is not a kind; allowed: all, fallback, app_open") && wrong.html.contains("<select name=\"kind\">"))
        #expect(fixture.page("?kind=aasa&kind=fallback").status == 400)
        let limited = fixture.page("?limit=5")
        #expect(limited.status == 400)
        #expect(limited.html.contains("fixed sizes"))
    }

    /// The kind cell of every row of the last-hits table.
    static func kindsOfLastHits(_ html: String) -> [String] {
        html.components(separatedBy: "<td class=\"kind\">").dropFirst().map { cell in
            // `<span title="…"><bdi>kind</bdi></span>` or `<details title="…"><summary><bdi>kind…`;
            // a title holds no `<`, as it is escaped.
            let opened = cell.components(separatedBy: "<bdi>")[1]
            return String(opened.prefix { $0 != "<" })
        }
    }

    /// The panel of links that did not open the app: bypass opens (through a page's own open
    /// button) by rule, in-app browser and referrer, each with its reason; a rule whose logged link
    /// the served AASA file does not cover comes first, as a configuration bug, with the link.
    @Test func linksThatDidNotOpenTheAppAreListedWithTheirReasons() throws {
        let fixture = try Fixture()
        let html = fixture.page().html
        let panel = try #require(
            html.components(separatedBy: "<section class=\"bypass\">").dropFirst().first?.components(separatedBy: "</section>\n</div>").first)
        let bypasses = fixture.sample.records.filter { $0.kind == "app_open" && $0.event == "custom-scheme" }
        #expect(bypasses.count > 5)
        #expect(panel.contains("Links that did not open the app <span class=\"tag\">\(bypasses.count)</span>"), "\(panel.prefix(300))")
        // The rule the served file does not cover is first, marked, with its link.
        let firstRow = try #require(panel.components(separatedBy: "<tr").dropFirst().first)
        #expect(firstRow.hasPrefix(" class=\"bug\">") && firstRow.contains("rowhni oldinvite"), "\(firstRow)")
        #expect(firstRow.contains("does not cover rowhni.com/oldinvite?code=hmac:"))
        #expect(firstRow.contains("<td class=\"number\">3</td>"))
        // The rest are covered, and the in-app browsers and referrers say why they were shown a page.
        #expect(panel.components(separatedBy: "class=\"bug\"").count == 2, "one rule is a bug")
        // The reason the covered rules share is said once, under the list's title, not on each row.
        let byRule = try #require(panel.components(separatedBy: "<h3>").dropFirst().first)
        let covered = "The AASA file covers these links"
        #expect(byRule.components(separatedBy: covered).count == 2, "\(byRule)")
        #expect(byRule.contains("<p class=\"note\">\(covered)"))
        #expect(byRule.components(separatedBy: "<tr").count > 3, "several covered rules share it")
        #expect(panel.contains("By in-app browser") && panel.contains("facebook") && panel.contains("An in-app browser: it shows links itself"))
        #expect(panel.contains("No referrer: typed or pasted into the browser"))
        #expect(panel.contains("l.instagram.com"))
        let german = fixture.page(language: "de").html
        #expect(german.contains("Links, die die App nicht geöffnet haben") && german.contains("Konfigurationsfehler"))
        // A range without bypass opens says so.
        let empty = fixture.page("?since=2020-01-01&until=2020-01-02").html
        #expect(empty.contains("No app was opened from a fallback page in this range"))
    }

    @Test func loggedValuesAreEscapedAndTheirControlCharactersShown() throws {
        let fixture = try Fixture()
        for query in ["", "?kind=all", "?kind=not_found"] {
            let html = fixture.page(query).html
            #expect(!html.contains("<script"), "\(query)")
            #expect(!html.contains("<img"), "\(query)")
            #expect(!html.contains("<b>table broken"), "\(query)")
            #expect(html.contains("&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;") || query == "?kind=not_found", "\(query)")
            let controls = html.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }
            #expect(controls.isEmpty, "\(query): \(controls.map(\.value))")
        }
        // Each shown in the top campaigns and the last hits when the filter picks its campaign.
        for (query, shown) in [("nul%00inside", "nul\u{FFFD}inside"), ("%1B%5B31mred%1B%5B0m", "\u{FFFD}[31mred\u{FFFD}[0m")] {
            let html = fixture.page("?utm-campaign=" + query).html
            #expect(html.components(separatedBy: ">\(shown)</").count > 2, "\(shown)")
        }
    }

    @Test func everyDayHasItsLabelWhileTheyFit() throws {
        let fixture = try Fixture()
        for (query, days) in [("?since=3d", 4), ("", 8), ("?since=2026-01-01&until=2026-01-08", 7), ("?since=2026-01-30&until=2026-02-03", 4)] {
            let html = fixture.page(query).html
            for size in DashboardChart.Size.all {
                let drawing = try #require(html.components(separatedBy: "<svg class=\"chart\" data-size=\"\(size.name)\"").dropFirst().first)
                let svg = try #require(drawing.components(separatedBy: "</svg>").first)
                let labels = svg.components(separatedBy: "<text class=\"day\"").count - 1
                #expect(labels == days, "\(query) \(size.name)")
                #expect(svg.components(separatedBy: "<rect class=\"hover\"").count - 1 == days, "\(query) \(size.name)")
            }
        }
        // Four months do not fit: the labels thin out to an even spacing that ends on the last day.
        let months = fixture.page("?since=2026-01-01&until=2026-05-01").html
        for size in DashboardChart.Size.all {
            let drawing = try #require(months.components(separatedBy: "<svg class=\"chart\" data-size=\"\(size.name)\"").dropFirst().first)
            let svg = try #require(drawing.components(separatedBy: "</svg>").first)
            let places = svg.components(separatedBy: "<text class=\"day\" x=\"").dropFirst().compactMap { Double($0.prefix { $0 != "\"" }) }
            let texts = svg.components(separatedBy: "<text class=\"day\"").dropFirst().map { $0.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" } }
            #expect(places.count > 4 && places.count < 120, "\(size.name): \(places.count) labels")
            #expect(texts.last == "30", "\(size.name): the last day, April 30, keeps its label")
            let gaps = zip(places, places.dropFirst()).map { $1 - $0 }
            #expect((gaps.max() ?? 0) - (gaps.min() ?? 0) < 0.25, "\(size.name): gaps \(gaps)")
        }
        let january = fixture.page("?since=2026-01-30&until=2026-02-03&lang=de").html
        #expect(january.contains(">Jan.</text>") && january.contains(">Feb.</text>"))
        #expect(january.contains("<title>2026-01-31: 0 Seitenaufrufe · 0 App-Öffnungen · 0 AASA-Abrufe</title>"))
    }

    @Test(arguments: [1, 2, 3, 4, 7, 8, 14, 31, 92, 365, 400])
    func labelsThinOutEvenlyAndKeepTheLastDay(days: Int) {
        for capacity in 1...60 {
            let labelled = DashboardChart.labelledIndexes(days, capacity: capacity)
            #expect(labelled.last == days - 1)
            #expect(labelled.count <= max(capacity, 1) || labelled.count == 1)
            let gaps = Set(zip(labelled, labelled.dropFirst()).map { $1 - $0 })
            #expect(gaps.count <= 1, "\(days) days, room for \(capacity): gaps \(gaps)")
            if days <= capacity { #expect(labelled == Array(0..<days)) }
            // Never thinner than needed: the next smaller step would not fit.
            if let gap = gaps.first, gap > 1 {
                let smaller = gap <= 3 ? gap - 1 : gap == 7 ? 3 : gap - 7
                #expect((days + smaller - 1) / smaller > capacity, "\(days) days, room for \(capacity): step \(gap)")
            }
        }
    }

    @Test func theChartsScaleHasRoundStepsThatReachTheLargestCount() {
        for steps in [2, 4] {
            for value in [0, 1, 3, 4, 5, 7, 9, 10, 11, 30, 99, 101, 250, 999, 1234, 40_001] {
                let ceiling = DashboardChart.niceCeiling(value, steps: steps)
                #expect(ceiling >= max(value, steps) && ceiling % steps == 0, "\(value) in \(steps) steps: \(ceiling)")
                #expect(ceiling <= max(steps, value * 5 / 2 + steps), "\(value) in \(steps) steps: \(ceiling)")
                let step = ceiling / steps
                var power = 1
                while power * 10 <= step { power *= 10 }
                #expect(step <= 5 || [1, 2, 5].contains(step / power) || step * 10 / power == 25, "\(value) in \(steps) steps: step \(step)")
            }
        }
    }

    @Test func theSignInPageAsksPlainlyAndAlertsOnlyOnErrors() throws {
        let pages = try AdminPages(folder: ProjectPaths.root + "/Public/admin")
        for language in AdminPages.languages {
            let prompt = pages.text("login_needed", language)
            let asked = pages.loginPage(language: language, prompt: prompt)
            #expect(asked.contains("<p class=\"prompt\">\(prompt)</p>"))
            #expect(!asked.contains("role=\"alert\"") && !asked.contains("class=\"message\""))
            #expect(!pages.loginPage(language: language).contains("role=\"alert\""))
            let wrong = pages.text("login_wrong", language)
            #expect(pages.loginPage(language: language, error: wrong).contains("<p class=\"message\" role=\"alert\">\(wrong)</p>"))
        }
    }

    @Test func numbersAreWrittenTheWayEachLanguageWritesThem() throws {
        #expect(Dashboard.grouped(0, separator: ",") == "0")
        #expect(Dashboard.grouped(999, separator: ",") == "999")
        #expect(Dashboard.grouped(1000, separator: ",") == "1,000")
        #expect(Dashboard.grouped(1_234_567, separator: ".") == "1.234.567")
        #expect(Dashboard.grouped(-12_345, separator: ",") == "-12,345")
        #expect(Dashboard.percent(12.345, decimalMark: ".") == "12.3 %")
        #expect(Dashboard.percent(12.345, decimalMark: ",") == "12,3 %")
        // On the page: the funnel's shares and the counts in German.
        let fixture = try Fixture()
        let german = fixture.page(language: "de").html
        let shares = german.components(separatedBy: "<span class=\"share\">").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(shares.count == 7 && shares.allSatisfy { $0.contains(",") && $0.hasSuffix(" %") }, "\(shares)")
    }

    /// A bidi control in a logged value (U+202E, U+2066–2069) must not reorder what follows it in
    /// the dashboard: every value is rendered inside `<bdi>`, which isolates it (HTML's bdi element).
    @Test func bidiControlsInLoggedValuesStayInsideTheirCell() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        // U+202E RIGHT-TO-LEFT OVERRIDE, U+2066–U+2069 the isolates, percent-encoded in the URL.
        let controls = ["%E2%80%AE", "%E2%81%A6", "%E2%81%A7", "%E2%81%A8", "%E2%81%A9"]
        for control in controls {
            let value = "a\(control)b"
            _ = try harness.visit(
                "/addfriend?code=BIDI1234&utm_campaign=\(value)&utm_source=\(value)&utm_medium=\(value)",
                headers: [("Referer", "https://x.example/a\u{202E}b"), ("User-Agent", "agent a\u{2067}b")])
            _ = try harness.visit("/nothing-\(value)")
        }
        try harness.waitForRows(2 * controls.count)
        let page = try harness.admin("/?kind=all&since=1d")
        #expect(page.status == 200)
        var html = page.text
        #expect(html.contains("\u{202E}") && html.contains("\u{2067}"), "the values are not on the page at all")
        // Left once every isolated value and every attribute is taken out: nothing.
        for pattern in [#"<bdi>[^<]*</bdi>"#, #"title="[^"]*""#, #"value="[^"]*""#] {
            html = html.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
        }
        for scalar in ["\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"] {
            #expect(!html.contains(scalar), "U+\(String(scalar.unicodeScalars.first!.value, radix: 16, uppercase: true)) outside <bdi>")
        }
    }
}
