import LinkLogSQLite
import Testing

@testable import LinkLog

/// Records of fallback views and app opens that carry view tokens (`lh_view`).
enum TokenSample {
    typealias S = FunnelSample

    /// A fallback view that handed out `token`.
    static func view(
        _ token: String, at time: Int64 = S.base, code: String? = nil, site: String = "rowhni", rule: String = "addfriend",
        campaign: String? = nil, inApp: String? = nil, referrerHost: String? = nil
    ) -> LogRecord {
        var record = S.view(code, at: time, site: site, rule: rule, campaign: campaign)
        record.viewToken = token
        record.inApp = inApp
        record.referrerHost = referrerHost
        return record
    }

    /// An app open that reported `token` (and how the app was opened).
    static func open(
        _ token: String?, at time: Int64, source: String? = nil, code: String? = nil, site: String = "rowhni", rule: String = "addfriend"
    ) -> LogRecord {
        var record = S.open(code, at: time, site: site, rule: rule)
        record.viewToken = token
        record.event = source
        return record
    }
}

/// One situation of pairing by view token, and what the funnel must count.
struct TokenPairingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let records: [LogRecord]
    let paired: Int
    var bypasses = 0
    var installs = 0

    var testDescription: String { name }
}

/// An app open that reports a view token is paired with exactly the view of that token, once; the
/// funnel counts the bypass opens and installs among the paired opens, the same from the rollups
/// the writer keeps, from pairing at query time and after a rebuild.
@Suite("Pairing by view token")
struct ViewTokenPairingTests {
    typealias S = FunnelSample
    typealias T = TokenSample
    static let minute: Int64 = 60_000

    static let cases: [TokenPairingCase] = [
        TokenPairingCase(
            name: "the open button: a custom-scheme open a minute after its view",
            records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base + minute, source: "custom-scheme")], paired: 1, bypasses: 1),
        TokenPairingCase(
            name: "the copied link after an install, two days later",
            records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base + 2 * S.day, source: "pasteboard")], paired: 1, installs: 1),
        TokenPairingCase(
            name: "Google Play's install referrer",
            records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base + S.hour, source: "install-referrer")], paired: 1,
            installs: 1),
        TokenPairingCase(
            name: "a Universal Link open with the token counts as paired, neither bypass nor install",
            records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base + S.hour, source: "universal-link")], paired: 1),
        TokenPairingCase(
            name: "a forum link without any code pairs by its token",
            records: [
                T.view("tokenAAAAAAAAAAA", site: "awful", rule: "thread"),
                T.open("tokenAAAAAAAAAAA", at: S.base + minute, source: "custom-scheme", site: "awful", rule: "thread"),
            ], paired: 1, bypasses: 1),
        TokenPairingCase(
            name: "a token no view handed out", records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenBBBBBBBBBBB", at: S.base + minute)], paired: 0),
        TokenPairingCase(
            name: "an unknown token is not paired by the invite code instead",
            records: [T.view("tokenAAAAAAAAAAA", code: "C"), T.open("tokenBBBBBBBBBBB", at: S.base + minute, code: "C")], paired: 0),
        TokenPairingCase(
            name: "an open 7 days and 1 ms after its view",
            records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base + 7 * S.day + 1)], paired: 0),
        TokenPairingCase(
            name: "an open exactly 7 days after its view",
            records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base + 7 * S.day, source: "pasteboard")], paired: 1,
            installs: 1),
        TokenPairingCase(
            name: "a phone clock two minutes behind the server's",
            records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base - 2 * minute, source: "custom-scheme")], paired: 1,
            bypasses: 1),
        TokenPairingCase(
            name: "an open ten minutes before the view",
            records: [T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base - 10 * minute)], paired: 0),
        TokenPairingCase(
            name: "a token is credited once: the copied link passed on opens the app again",
            records: [
                T.view("tokenAAAAAAAAAAA"), T.open("tokenAAAAAAAAAAA", at: S.base + S.hour, source: "pasteboard"),
                T.open("tokenAAAAAAAAAAA", at: S.base + 2 * S.hour, source: "pasteboard"),
            ], paired: 1, installs: 1),
        TokenPairingCase(
            name: "a token of another site", records: [T.view("tokenAAAAAAAAAAA", site: "awful"), T.open("tokenAAAAAAAAAAA", at: S.base + minute)],
            paired: 0),
        TokenPairingCase(
            name: "two views, each opened through its own button",
            records: [
                T.view("tokenAAAAAAAAAAA", code: "C"), T.view("tokenBBBBBBBBBBB", at: S.base + minute, code: "C"),
                T.open("tokenAAAAAAAAAAA", at: S.base + 2 * minute, source: "custom-scheme", code: "C"),
                T.open("tokenBBBBBBBBBBB", at: S.base + 3 * minute, source: "custom-scheme", code: "C"),
            ], paired: 2, bypasses: 2),
        TokenPairingCase(
            name: "an open without a token still pairs by its code",
            records: [T.view("tokenAAAAAAAAAAA", code: "C"), T.open(nil, at: S.base + minute, source: "pasteboard", code: "C")], paired: 1,
            installs: 1),
    ]

    @Test("an open with a token is paired with that view alone, once, within the window", arguments: cases)
    func pairs(situation: TokenPairingCase) throws {
        let fixture = try LogFixture()
        try fixture.write(situation.records)
        let row = try #require(try fixture.reader().funnel(by: nil, LogFilter()).first)
        #expect(row.opensAfterView == situation.paired)
        #expect(row.bypassOpens == situation.bypasses)
        #expect(row.installs == situation.installs)
        #expect(row.appOpens == situation.records.filter { $0.kind == "app_open" }.count)
        // Pairing at query time (the reference) agrees with the pairing the writer kept.
        let reference = try LogReader(databasePath: fixture.databasePath, usesRollups: false)
        #expect(try reference.funnel(by: nil, LogFilter()) == [row])
        #expect(try reference.funnel(by: .utmCampaign, LogFilter()) == (try fixture.reader().funnel(by: .utmCampaign, LogFilter())))
    }

    /// Rows may arrive in any order (a spool replayed, two instances): the pairing does not depend
    /// on it. An open written before its view is paired when the view arrives; an earlier open of
    /// the token arriving later takes the credit from the one that had it.
    @Test("the pairing does not depend on the order rows are written in")
    func orderDoesNotMatter() throws {
        let fixture = try LogFixture()
        let token = "tokenAAAAAAAAAAA"
        try fixture.write([T.open(token, at: S.base + 2 * S.hour, source: "custom-scheme")])
        #expect(try fixture.reader().funnel(by: nil, LogFilter()).first?.opensAfterView == 0)
        try fixture.write([T.view(token, campaign: "spring")])
        #expect(try fixture.reader().funnel(by: .utmCampaign, LogFilter()).first?.bypassOpens == 1)
        try fixture.write([T.open(token, at: S.base + S.hour, source: "pasteboard")])
        let reader = try fixture.reader()
        let row = try #require(try reader.funnel(by: .utmCampaign, LogFilter()).first { $0.key == "spring" })
        #expect(row.opensAfterView == 1 && row.installs == 1 && row.bypassOpens == 0, "\(row)")
        let paired = try reader.rows(LogFilter(kind: "app_open"))
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        let credited = try connection.queryInteger("SELECT ts_ms FROM hits WHERE kind = 'app_open' AND view_id IS NOT NULL")
        #expect(paired.count == 2)
        #expect(credited == S.base + S.hour, "the earlier open holds the credit")
        #expect(try connection.queryInteger("SELECT SUM(hits) FROM credits_daily") == 1)
        #expect(
            try reader.funnel(by: .utmCampaign, LogFilter())
                == (try LogReader(databasePath: fixture.databasePath, usesRollups: false).funnel(by: .utmCampaign, LogFilter())))
    }

    /// The dashboard's links that did not open the app: the bypass opens of the range's views,
    /// grouped by link, in-app browser and referrer, found through the index of paired bypass opens
    /// by time, never by walking every credited open of the log.
    @Test("bypassed links are read through the index of bypass opens")
    func bypassedLinks() throws {
        let fixture = try LogFixture()
        try fixture.write([
            T.view("tokenAAAAAAAAAAA", inApp: "instagram"), T.open("tokenAAAAAAAAAAA", at: S.base + Self.minute, source: "custom-scheme"),
            T.view("tokenBBBBBBBBBBB", at: S.base + S.day), T.open("tokenBBBBBBBBBBB", at: S.base + S.day + Self.minute, source: "custom-scheme"),
            T.view("tokenCCCCCCCCCCC"), T.open("tokenCCCCCCCCCCC", at: S.base + Self.minute, source: "pasteboard"),
        ])
        let reader = try fixture.reader()
        let all = try reader.bypassedLinks()
        #expect(all.map(\.link.hits) == [1, 1] && Set(all.map(\.inApp)) == [nil, "instagram"], "\(all)")
        // The range applies to the view: the second view is a day later.
        let first = try reader.bypassedLinks(LogFilter(since: S.base, until: S.base + S.hour))
        #expect(first.map(\.inApp) == ["instagram"])
        var arguments = SQLArguments(dialect: SQLiteDialect())
        _ = arguments.add(.integer(0))
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        let plan = try FunnelTests.queryPlan(
            connection,
            "SELECT seen.id FROM hits AS opened CROSS JOIN hits AS seen WHERE opened.kind = 'app_open' AND opened.event = 'custom-scheme' "
                + "AND opened.view_id IS NOT NULL AND seen.id = opened.view_id AND opened.ts_ms >= ?1", arguments.values)
        #expect(plan.contains { $0.contains("USING INDEX hits_bypass_time") }, "\(plan)")
    }

    /// Where the views came from: the in-app browser's app and the referrer's host group the funnel
    /// (from the log's rows: the rollups do not keep them), and a rebuild of the rollups keeps
    /// every count.
    @Test("the funnel groups by in-app browser and referrer host, and a rebuild gives the same counts")
    func groupsByInAppAndReferrer() throws {
        let fixture = try LogFixture()
        try fixture.write([
            T.view("tokenAAAAAAAAAAA", inApp: "instagram", referrerHost: "l.instagram.com"),
            T.view("tokenBBBBBBBBBBB", at: S.base + Self.minute, inApp: "instagram", referrerHost: "l.instagram.com"),
            T.view("tokenCCCCCCCCCCC", at: S.base + 2 * Self.minute),
            T.open("tokenAAAAAAAAAAA", at: S.base + 3 * Self.minute, source: "custom-scheme"),
            T.open("tokenBBBBBBBBBBB", at: S.base + S.day, source: "pasteboard"),
            T.open("tokenCCCCCCCCCCC", at: S.base + 4 * Self.minute, source: "custom-scheme"),
        ])
        let reader = try fixture.reader()
        let byApp = try reader.funnel(by: .inApp, LogFilter())
        #expect(
            byApp == [
                FunnelRow(key: "instagram", views: 2, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 0, opensAfterView: 2, bypassOpens: 1, installs: 1),
                FunnelRow(key: nil, views: 1, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 3, opensAfterView: 1, bypassOpens: 1, installs: 0),
            ], "\(byApp)")
        let byReferrer = try reader.funnel(by: .referrerHost, LogFilter())
        #expect(byReferrer.map(\.key) == ["l.instagram.com", nil])
        #expect(byReferrer.map(\.bypassOpens) == [1, 1])
        #expect(byReferrer.first?.bypassRate == 0.5)
        #expect(try reader.stats(by: .inApp).map { [$0.key ?? "-": $0.hits] } == [["-": 4], ["instagram": 2]])
        let reference = try LogReader(databasePath: fixture.databasePath, usesRollups: false)
        #expect(try reference.funnel(by: .inApp, LogFilter()) == byApp)

        // Rebuilt from the rows: the writer's pairing and its rollups come back the same.
        let connection = try SQLiteConnection(path: fixture.databasePath)
        try connection.execute("UPDATE hits SET view_id = NULL; DELETE FROM credits_hourly; DELETE FROM credits_daily;")
        #expect(try fixture.reader().funnel(by: nil, LogFilter()).first?.opensAfterView == 0)
        try RollupBuilder(connection: connection).rebuild()
        #expect(try fixture.reader().funnel(by: .inApp, LogFilter()) == byApp)
        #expect(try fixture.reader().funnel(by: .utmCampaign, LogFilter()) == (try reference.funnel(by: .utmCampaign, LogFilter())))
    }
}
