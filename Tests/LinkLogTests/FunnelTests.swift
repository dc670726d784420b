import LinkLogSQLite
import OrderedJSON
import Testing

@testable import LinkLog

/// Funnel rows as the server writes them: views and app opens carry the token of their invite code
/// from a real `SecretHasher`, page clicks carry their event name.
enum FunnelSample {
    static let hasher = SecretHasher(key: Array(repeating: 7, count: SecretHasher.keyLength))
    static let base = Sample.baseTime
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    static func token(_ code: String?) -> String? {
        code.map { hasher.token(for: $0) }
    }

    /// A fallback page shown for `code`.
    static func view(
        _ code: String?, at time: Int64 = base, site: String = "rowhni", rule: String = "addfriend", campaign: String? = nil, status: Int = 200
    ) -> LogRecord {
        Sample.record(at: time, site: site, path: "/\(rule)", kind: "fallback", rule: rule, status: status, utmCampaign: campaign, secretToken: token(code))
    }

    /// A button click a fallback page reported.
    static func click(_ event: String, at time: Int64 = base, campaign: String? = nil) -> LogRecord {
        Sample.record(at: time, path: "/v1/events", kind: "event", rule: "addfriend", status: 204, utmCampaign: campaign, method: "POST", event: event)
    }

    /// The app reporting it was opened with the link of `code`.
    static func open(_ code: String?, at time: Int64, site: String = "rowhni", rule: String = "addfriend") -> LogRecord {
        Sample.record(at: time, site: site, path: "/v1/opens", kind: "app_open", rule: rule, status: 204, method: "POST", secretToken: token(code))
    }
}

/// One situation for the view-to-open pairing and how many opens it should credit.
struct PairingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let records: [LogRecord]
    let pairedOpens: Int

    var testDescription: String { name }
}

@Suite("Funnel")
struct FunnelTests {
    typealias S = FunnelSample

    @Test("one campaign's views, clicks and opens add up; other kinds, other events and non-200 pages do not count")
    func campaignAddsUp() throws {
        let springViews = (0..<4).map { S.view("S\($0)", at: S.base + Int64($0) * 60_000, campaign: "spring") }
        let autumnViews = (0..<2).map { S.view("A\($0)", at: S.base + Int64($0) * 60_000, campaign: "autumn") }
        let springClicks =
            Array(repeating: S.click("open-app", campaign: "spring"), count: 3)
            + Array(repeating: S.click("store", campaign: "spring"), count: 2)
            + [S.click("copy", campaign: "spring")]
        // The app reports opens without the link's campaign; they pair with spring views S0 and S1,
        // and count under spring (the campaign rule).
        let opens = [S.open("S0", at: S.base + S.hour), S.open("S1", at: S.base + 2 * S.hour)]
        let noise = [
            S.view("S2", campaign: "spring", status: 304),
            S.click("share", campaign: "spring"),
            Sample.record(kind: "aasa", rule: nil, utmCampaign: "spring"),
            Sample.record(kind: "bad_link", status: 400, utmCampaign: "spring", secretToken: S.token("S3")),
        ]
        let fixture = try LogFixture()
        try fixture.write(springViews + autumnViews + springClicks + [S.click("open-app", campaign: "autumn")] + opens + noise)
        let reader = try fixture.reader()

        let spring = FunnelRow(key: "spring", views: 4, openClicks: 3, storeClicks: 2, copies: 1, appOpens: 2, opensAfterView: 2)
        let autumn = FunnelRow(key: "autumn", views: 2, openClicks: 1, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0)
        #expect(try reader.funnel(by: .utmCampaign, LogFilter()) == [spring, autumn])

        var onlySpring = spring
        onlySpring.key = nil
        #expect(try reader.funnel(by: nil, LogFilter(utmCampaign: "spring")) == [onlySpring])

        let everything = try #require(try reader.funnel(by: nil, LogFilter()).first)
        #expect(everything == FunnelRow(key: nil, views: 6, openClicks: 4, storeClicks: 2, copies: 1, appOpens: 2, opensAfterView: 2))
        // The kind filter is not the funnel's to apply: it counts fixed kinds.
        #expect(try reader.funnel(by: nil, LogFilter(kind: "aasa")) == [everything])
        #expect(try reader.funnel(by: .utmCampaign, LogFilter(limit: 1)) == [spring])
    }

    static let pairing: [PairingCase] = [
        PairingCase(name: "a view, then an open of its code an hour later", records: [S.view("C"), S.open("C", at: S.base + S.hour)], pairedOpens: 1),
        PairingCase(name: "a view and an open in the same millisecond", records: [S.view("C"), S.open("C", at: S.base)], pairedOpens: 1),
        PairingCase(name: "an open exactly 7 days after its view", records: [S.view("C"), S.open("C", at: S.base + 7 * S.day)], pairedOpens: 1),
        PairingCase(name: "an open 7 days and 1 ms after its view", records: [S.view("C"), S.open("C", at: S.base + 7 * S.day + 1)], pairedOpens: 0),
        PairingCase(name: "an open 8 days after its view", records: [S.view("C"), S.open("C", at: S.base + 8 * S.day)], pairedOpens: 0),
        PairingCase(name: "an open whose code was never viewed", records: [S.view("D"), S.open("C", at: S.base + S.hour)], pairedOpens: 0),
        PairingCase(name: "an open without a token", records: [S.view("C"), S.open(nil, at: S.base + S.hour)], pairedOpens: 0),
        PairingCase(name: "a view that came after the open", records: [S.view("C", at: S.base + S.hour), S.open("C", at: S.base)], pairedOpens: 0),
        PairingCase(
            name: "a view of another rule", records: [S.view("C", rule: "joingroup"), S.open("C", at: S.base + S.hour, rule: "addfriend")], pairedOpens: 0),
        PairingCase(name: "a view on another site", records: [S.view("C", site: "awful"), S.open("C", at: S.base + S.hour)], pairedOpens: 0),
        PairingCase(name: "a fallback that was not a 200", records: [S.view("C", status: 304), S.open("C", at: S.base + S.hour)], pairedOpens: 0),
        PairingCase(
            name: "a bad link with the code",
            records: [Sample.record(kind: "bad_link", status: 400, secretToken: S.token("C")), S.open("C", at: S.base + S.hour)], pairedOpens: 0),
        PairingCase(
            name: "two opens after one view count twice",
            records: [S.view("C"), S.open("C", at: S.base + S.hour), S.open("C", at: S.base + 2 * S.hour)], pairedOpens: 2),
        PairingCase(
            name: "one open after two views counts once",
            records: [S.view("C"), S.view("C", at: S.base + S.hour), S.open("C", at: S.base + 2 * S.hour)], pairedOpens: 1),
        PairingCase(
            name: "a view after the open does not stand in for one more than 7 days before it",
            records: [S.view("C"), S.open("C", at: S.base + 8 * S.day), S.view("C", at: S.base + 9 * S.day)], pairedOpens: 0),
    ]

    @Test("opens_after_view pairs an app open with a view of the same code, site and rule up to 7 days before", arguments: pairing)
    func pairs(situation: PairingCase) throws {
        let fixture = try LogFixture()
        try fixture.write(situation.records)
        let row = try #require(try fixture.reader().funnel(by: nil, LogFilter()).first)
        #expect(row.opensAfterView == situation.pairedOpens)
        #expect(row.appOpens == situation.records.filter { $0.kind == "app_open" }.count)
        #expect(row.views == situation.records.filter { $0.kind == "fallback" && $0.status == 200 }.count)
    }

    @Test("an open is credited to the group of its latest view, and the filter applies to that view")
    func creditsTheLatestView() throws {
        let fixture = try LogFixture()
        try fixture.write([
            S.view("C", at: S.base, campaign: "spring"),
            S.view("C", at: S.base + S.day, campaign: "autumn"),
            S.open("C", at: S.base + 2 * S.day),
        ])
        let reader = try fixture.reader()
        #expect(
            try reader.funnel(by: .utmCampaign, LogFilter()) == [
                FunnelRow(key: "autumn", views: 1, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 1, opensAfterView: 1),
                FunnelRow(key: "spring", views: 1, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0),
            ])
        // Filtering for a campaign gives what its row says when grouped: the credit went to autumn.
        #expect(try reader.funnel(by: nil, LogFilter(utmCampaign: "spring")).map(\.opensAfterView) == [0])
        #expect(try reader.funnel(by: nil, LogFilter(utmCampaign: "autumn")).map(\.opensAfterView) == [1])
        // By day, the open counts on the day of the view that led to it; days in date order.
        #expect(
            try reader.funnel(by: .day, LogFilter()) == [
                FunnelRow(key: "2026-11-01", views: 1, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0),
                FunnelRow(key: "2026-11-02", views: 1, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 1),
                FunnelRow(key: "2026-11-03", views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 1, opensAfterView: 0),
            ])
        // A time range keeps the views in it, and their opens even after it ends.
        let views = try #require(try reader.funnel(by: nil, LogFilter(until: S.base + S.day + 1)).first)
        #expect(views.views == 2 && views.appOpens == 0 && views.opensAfterView == 1)
        let opens = try #require(try reader.funnel(by: nil, LogFilter(since: S.base + 2 * S.day)).first)
        #expect(opens.views == 0 && opens.appOpens == 1 && opens.opensAfterView == 0)
        #expect(try reader.funnel(by: .site, LogFilter(site: "awful")) == [])
        #expect(try reader.funnel(by: .rule, LogFilter()).map(\.key) == ["addfriend"])
    }

    @Test("rates are shares of views, absent without views; JSON rounds them to four decimals, tables show percentages")
    func rates() throws {
        let fixture = try LogFixture()
        let spring = (0..<8).map { S.view("S\($0)", at: S.base + Int64($0), campaign: "spring") }
        let autumn = (0..<3).map { S.view("A\($0)", at: S.base + Int64($0), campaign: "autumn") }
        try fixture.write(
            spring + autumn
                + [S.click("open-app", campaign: "spring")] + Array(repeating: S.click("store", campaign: "spring"), count: 3)
                + Array(repeating: S.click("copy", campaign: "autumn"), count: 2)
                + [S.open("S0", at: S.base + S.hour), S.open("S1", at: S.base + S.hour), S.open(nil, at: S.base + S.hour)])
        let rows = try fixture.reader().funnel(by: .utmCampaign, LogFilter())
        #expect(rows.map(\.key) == ["spring", "autumn", nil])
        #expect(rows[0].openClickRate == 1.0 / 8)
        #expect(rows[0].storeClickRate == 3.0 / 8)
        #expect(rows[0].copyRate == 0)
        #expect(rows[0].opensAfterViewRate == 2.0 / 8)
        #expect(rows[1].copyRate == 2.0 / 3)
        #expect(rows[0].appOpens == 2 && rows[2].appOpens == 1)
        #expect([rows[2].openClickRate, rows[2].storeClickRate, rows[2].copyRate, rows[2].opensAfterViewRate] == [nil, nil, nil, nil])

        let json = try JSONParser().parse(OutputFormat.json.render(ResultTable(funnel: rows, dimension: .utmCampaign, percentages: false)))
        let objects = try #require(json.arrayElements)
        let keys = [
            "utm_campaign", "views", "open_clicks", "store_clicks", "copies", "app_opens", "opens_after_view", "bypass_opens", "installs",
            "previews", "open_click_rate", "store_click_rate", "copy_rate", "opens_after_view_rate", "bypass_rate", "install_rate",
        ]
        #expect(objects.allSatisfy { $0.objectMembers?.map(\.key) == keys })
        #expect(objects[0]["utm_campaign"] == "spring")
        #expect(objects[0]["views"] == 8)
        #expect(objects[0]["open_click_rate"]?.numberValue?.literal == "0.125")
        #expect(objects[0]["opens_after_view_rate"]?.numberValue?.literal == "0.25")
        #expect(objects[0]["copy_rate"]?.numberValue?.literal == "0")
        #expect(objects[1]["copy_rate"]?.numberValue?.literal == "0.6667")
        #expect(objects[2]["utm_campaign"] == .string(StatsRow.noneKey))
        #expect(objects[2]["open_click_rate"] == .null)

        let csv = OutputFormat.csv.render(ResultTable(funnel: rows, dimension: .utmCampaign, percentages: false))
        #expect(csv.hasPrefix(keys.joined(separator: ",") + "\r\n"))
        #expect(csv.contains("\r\n(none),0,0,0,0,1,0,0,0,0,,,,,,\r\n"))

        let table = OutputFormat.table.render(ResultTable(funnel: rows, dimension: .utmCampaign, percentages: true), width: nil)
        let lines = table.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines[0] == keys)
        #expect(lines[2] == ["spring", "8", "1", "3", "0", "2", "2", "0", "0", "0", "12.5%", "37.5%", "0.0%", "25.0%", "0.0%", "0.0%"])
        #expect(lines[3] == ["autumn", "3", "0", "0", "2", "0", "0", "0", "0", "0", "0.0%", "0.0%", "66.7%", "0.0%", "0.0%", "0.0%"])
        #expect(lines[4] == ["(none)", "0", "0", "0", "0", "1", "0", "0", "0", "0", "–", "–", "–", "–", "–", "–"])

        // On a 120-column terminal the fifteen columns' headers would be cut alike (open_… twice):
        // one record per group, every name and campaign whole.
        let narrow = OutputFormat.table.render(ResultTable(funnel: rows, dimension: .utmCampaign, percentages: true), width: 120)
        #expect(narrow.split(separator: "\n").allSatisfy { $0.count <= 120 }, "\(narrow)")
        #expect(narrow.split(separator: "\n").filter { $0.hasPrefix("utm_campaign") }.map { $0.split(separator: " ").last } == ["spring", "autumn", "(none)"])

        // Without a dimension there is no key column, and one row even for an empty log.
        let empty = try LogFixture()
        try empty.write([])
        let nothing = try empty.reader().funnel(by: nil, LogFilter())
        #expect(nothing == [FunnelRow(key: nil, views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 0)])
        #expect(ResultTable(funnel: nothing, dimension: nil, percentages: false).columns.map(\.name) == Array(keys.dropFirst()))
    }

    /// The detail lines of SQLite's plan for `sql`.
    static func queryPlan(_ connection: SQLiteConnection, _ sql: String, _ arguments: [SQLValue]) throws -> [String] {
        let plan = try connection.prepare("EXPLAIN QUERY PLAN " + sql)
        for (offset, value) in arguments.enumerated() { try plan.bind(value, at: offset + 1) }
        var details: [String] = []
        while try plan.step() { details.append(plan.text(at: 3) ?? "") }
        return details
    }

    @Test("pairing at query time reads the range's opens by time, finds each one's view once by its token or code, then the view by id")
    func queryPlanUsesIndexes() throws {
        let fixture = try LogFixture()
        try fixture.write([S.view("C"), S.open("C", at: S.base + S.hour)])
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        let query = FunnelQuery(dimension: .utmCampaign, filter: LogFilter(since: S.base, until: S.base + S.day, utmCampaign: "spring"), usesRollups: false)
        let (sql, arguments) = try #require(query.creditedStatement(SQLiteDialect()))
        let details = try Self.queryPlan(connection, sql, arguments)
        #expect(details.contains { $0.contains("SEARCH seen USING INDEX hits_view_token") }, "\(details)")
        // Opens with a token need not have a secret: the range's rows are read through the time
        // index (this reference is for tests; the funnel reads the pairing the writer keeps).
        #expect(details.contains { $0.contains("SEARCH opened USING INDEX hits_time") }, "\(details)")
        // Each open's view is found once, then looked up by id: not the subquery once per view and open.
        #expect(details.contains("MATERIALIZE paired") && details.contains("SCAN paired"), "\(details)")
        #expect(details.contains { $0.contains("SEARCH hits USING INTEGER PRIMARY KEY") }, "\(details)")
        #expect(!details.contains { $0.contains("SCAN hits") || $0.contains("SCAN seen") || $0.contains("SCAN opened") }, "\(details)")
    }

    @Test("with rollups, credited opens come from the credit rollup, and the cut hours from views by time and their opens by view")
    func rollupPlanReadsTheCreditRollup() throws {
        let fixture = try LogFixture()
        try fixture.write([S.view("C"), S.open("C", at: S.base + S.hour)])
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        // Cut hours at both ends, whole hours and a whole day between.
        let filter = LogFilter(since: S.base + S.hour / 2, until: S.base + 2 * S.day + S.hour / 2, utmCampaign: "spring")
        let query = FunnelQuery(dimension: .utmCampaign, filter: filter, usesRollups: true)
        let (sql, arguments) = try #require(query.creditedStatement(SQLiteDialect()))
        let details = try Self.queryPlan(connection, sql, arguments)
        #expect(details.contains { $0.contains("credits_daily USING") && $0.contains("INDEX credits_daily_key") }, "\(details)")
        #expect(details.contains { $0.contains("credits_hourly USING") && $0.contains("INDEX credits_hourly_key") }, "\(details)")
        #expect(details.contains { $0.contains("SEARCH seen USING INDEX hits_time") }, "\(details)")
        #expect(details.contains { $0.hasPrefix("SEARCH opened USING") && $0.contains("INDEX hits_view (view_id=?)") }, "\(details)")
        // No walk over every app open, as pairing at query time needs.
        #expect(!details.contains { $0.contains("hits_open_time") }, "\(details)")
        #expect(!sql.contains("linkhost_view_of_code"))
        #expect(!details.contains { $0.contains("SCAN hits") || $0.contains("SCAN seen") || $0.contains("SCAN opened") }, "\(details)")
    }

    @Test("an app open finds its code's latest view among views alone, never walking the code's other opens")
    func openFindsViewsAmongViewsAlone() throws {
        let fixture = try LogFixture()
        try fixture.write([S.view("C"), S.open("C", at: S.base + S.hour), S.open("C", at: S.base + 2 * S.hour)])
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        let sql = "SELECT \(OpenCrediting.latestView(SQLiteDialect())) FROM hits AS opened WHERE opened.id = ?1"
        let details = try Self.queryPlan(connection, sql, [.integer(3)])
        // Through an index of every row with a code, a code opened thousands of times made each
        // new open walk back over those opens to its view: 2,151 opens a second falling to none.
        // SQLite finds it through the chains of views (`SQLiteViewChains`), which hold views alone.
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM view_chain") == 1)
        #expect(!details.contains { $0.contains("SCAN") }, "\(details)")
        #expect(try connection.queryInteger(sql, [.integer(3)]) == 1)
    }

    @Test("a new view finds the opens it may now be the latest view for through the index of app opens, not every row of its code")
    func newViewsReadOnlyAppOpens() throws {
        let fixture = try LogFixture()
        try fixture.write([S.view("C"), S.open("C", at: S.base + S.hour)])
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        let (sql, arguments) = OpenCrediting.opensAfterViews([1, 2, 3], SQLiteDialect())
        let details = try Self.queryPlan(connection, sql, arguments)
        #expect(details.contains { $0.hasPrefix("SEARCH seen USING INTEGER PRIMARY KEY") }, "\(details)")
        #expect(details.contains { $0.hasPrefix("SEARCH opened USING INDEX hits_open_secret (secret=? AND ts_ms>? AND ts_ms<?)") }, "\(details)")
    }
}
