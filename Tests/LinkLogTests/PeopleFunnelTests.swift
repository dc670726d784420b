import Foundation
import LinkLogSQLite
import TestSupport
import Testing

@testable import LinkLog

/// The funnel counts people: link previews, crawlers and Apple's fetchers are `previews`, apart
/// from `views`; and one campaign rule: a paired app open counts under its view's campaign in every
/// column and every count (`OpenCampaign`).
@Suite("Funnel of people")
struct PeopleFunnelTests {
    typealias S = FunnelSample

    /// A fallback view of the launch campaign by `agent`, classified as the server classifies it.
    static func view(by agent: String, code: String? = nil, at time: Int64 = S.base, campaign: String? = "launch") -> LogRecord {
        var record = S.view(code, at: time, campaign: campaign)
        record.userAgent = agent
        record.clientClass = ClientClassifier.classify(agent).rawValue
        return record
    }

    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
    static let previewers = [
        "WhatsApp/2.23.20.0 A", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
        "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
        "AASA-Bot/1.0.0",
    ]

    /// The SQL docs/hit-log.md gives for the funnel's `views` and `previews`.
    static func documentedSQL() throws -> String {
        let text = try String(contentsOfFile: ProjectPaths.root + "/docs/hit-log.md", encoding: .utf8)
        let blocks = text.components(separatedBy: "```sql\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        return try #require(blocks.first { $0.contains("AS previews") })
    }

    @Test("previews, crawlers and Apple's fetchers are counted apart from views, and the rates are over people's views")
    func previewsApart() throws {
        let people = [Self.view(by: Self.iPhone, code: "P1"), Self.view(by: Self.iPhone, at: S.base + 1000)]
        let previews = Self.previewers.map { Self.view(by: $0) }
        let fixture = try LogFixture()
        try fixture.write(people + previews + [S.click("open-app", campaign: "launch")])
        for usesRollups in [true, false] {
            let reader = try LogReader(databasePath: fixture.databasePath, usesRollups: usesRollups)
            let row = try #require(try reader.funnel(by: .utmCampaign, LogFilter()).first)
            #expect(row.key == "launch" && row.views == 2 && row.previews == previews.count && row.openClickRate == 0.5, "\(row)")
            #expect(try reader.funnel(by: nil, LogFilter(clientClass: "link-preview")).first?.previews == 4)
        }
    }

    @Test("the documented SQL on hits gives the funnel's views and previews")
    func documentedSQLAgrees() throws {
        var records = RandomLog.records(count: 1500, seed: 11)
        for (index, agent) in ([Self.iPhone] + Self.previewers).enumerated() {
            records += (0..<(index + 3)).map { Self.view(by: agent, at: RandomLog.start + RandomLog.day + Int64($0) * 7_000_000) }
        }
        let fixture = try LogFixture()
        try fixture.write(records)
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        var fromSQL: [Int] = []
        let sql = try Self.documentedSQL().replacingOccurrences(of: ":since", with: String(RandomLog.start + RandomLog.day + 17))
        try connection.query(sql, []) { row in fromSQL = row.map { Int($0.integer ?? 0) } }
        let row = try #require(try fixture.reader().funnel(by: nil, LogFilter(since: RandomLog.start + RandomLog.day + 17)).first)
        #expect(fromSQL == [row.views, row.previews], "\(sql)")
        #expect(row.previews > 10 && row.views > 10)
    }

    @Test("each previewer is told by its app; Apple Messages' fetcher, which sends Facebook's and Twitter's markers together, is imessage")
    func previewApps() {
        let apps = Self.previewers.map(ClientClassifier.previewApp)
        #expect(apps == ["whatsapp", "facebook", "slack", "googlebot", "imessage", "aasa-bot"])
        #expect(ClientClassifier.previewApp("Twitterbot/1.0") == "twitter")
        #expect(ClientClassifier.previewApp("TelegramBot (like TwitterBot)") == "telegram")
        #expect(ClientClassifier.previewApp(Self.iPhone) == nil)
        for agent in Self.previewers { #expect(ClientClass.notPeople.contains(ClientClassifier.classify(agent)), "\(agent)") }
    }

    @Test("the writer stores each preview's app; a rebuild fills the rows logged before the column")
    func previewAppStored() throws {
        let fixture = try LogFixture()
        try fixture.write([Self.view(by: Self.iPhone)] + Self.previewers.map { Self.view(by: $0) })
        func stored() throws -> [String?] {
            var apps: [String?] = []
            let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
            try connection.query("SELECT preview_app FROM hits ORDER BY id", []) { apps.append($0[0].text) }
            return apps
        }
        let expected: [String?] = [nil, "whatsapp", "facebook", "slack", "googlebot", "imessage", "aasa-bot"]
        #expect(try stored() == expected)
        let stats = try fixture.reader().stats(by: .previewApp, LogFilter(kind: "fallback"))
        #expect(stats.map(\.key) == [nil, "aasa-bot", "facebook", "googlebot", "imessage", "slack", "whatsapp"], "\(stats)")
        try SQLiteConnection(path: fixture.databasePath).execute("UPDATE hits SET preview_app = NULL")
        try RollupBuilder(connection: SQLiteLogDatabase(path: fixture.databasePath).openConnection(readOnly: false)).rebuild()
        #expect(try stored() == expected)
    }

    /// A person's view of a code, then WhatsApp's preview fetch of the same link shared on under
    /// another campaign, then the app opened with the code.
    static var previewAfterView: [LogRecord] {
        [
            view(by: iPhone, code: "W1", at: S.base, campaign: "launch"), view(by: previewers[0], code: "W1", at: S.base + 60_000, campaign: "reshare"),
            S.open("W1", at: S.base + S.hour),
        ]
    }

    @Test("an open of a code pairs with the latest person's view of it, never with a preview's fetch")
    func previewsAreNoViewToPairWith() throws {
        let fixture = try LogFixture()
        try fixture.write(Self.previewAfterView)
        for usesRollups in [true, false] {
            let rows = try LogReader(databasePath: fixture.databasePath, usesRollups: usesRollups).funnel(by: .utmCampaign, LogFilter())
            #expect(
                rows.map { [$0.key ?? "-": [$0.views, $0.previews, $0.appOpens, $0.opensAfterView]] } == [
                    ["launch": [1, 0, 1, 1]], ["reshare": [0, 1, 0, 0]],
                ])
        }
    }

    // MARK: The campaign rule

    /// An app open with the link's own query (its UTM items) as the app reported it.
    static func open(_ code: String?, at time: Int64, query: String? = nil, token: String? = nil) -> LogRecord {
        var record = S.open(code, at: time)
        record.viewToken = token
        record.query = query
        var items: [(name: String, value: String)] = []
        for item in (query ?? "").split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            items.append((parts[0], parts.count > 1 ? parts[1] : ""))
        }
        record.takeParameters(from: items)
        return record
    }

    /// A log where the campaign's columns used to differ: opens paired with `launch` views that
    /// carry no campaign (counted under "(none)" in `app_opens`), one carrying another campaign,
    /// and unpaired opens with and without one.
    static var splitLog: [LogRecord] {
        let views = (0..<4).map { S.view("L\($0)", at: S.base + Int64($0) * 60_000, campaign: "launch") }
        let paired = (0..<3).map { open("L\($0)", at: S.base + S.hour + Int64($0)) }
        return views + paired + [
            open("L3", at: S.base + S.hour, query: "code=L3&utm_campaign=newsletter&utm_source=mail"),
            open("Z1", at: S.base + S.hour, query: "utm_campaign=newsletter"),
            open(nil, at: S.base + S.hour),
        ]
    }

    @Test(
        "a paired open counts under its view's campaign in app_opens and opens_after_view, in the funnel, in stats and in plain SQL; (none) holds opens with neither"
    )
    func oneCampaignRule() throws {
        let fixture = try LogFixture()
        try fixture.write(Self.splitLog)
        for usesRollups in [true, false] {
            let reader = try LogReader(databasePath: fixture.databasePath, usesRollups: usesRollups)
            let funnel = try reader.funnel(by: .utmCampaign, LogFilter())
            let launch = FunnelRow(key: "launch", views: 4, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 4, opensAfterView: 4)
            let newsletter = FunnelRow(key: "newsletter", views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 1, opensAfterView: 0)
            let none = FunnelRow(key: nil, views: 0, openClicks: 0, storeClicks: 0, copies: 0, appOpens: 1, opensAfterView: 0)
            #expect(funnel == [launch, none, newsletter], "rollups: \(usesRollups)")
            let opens = try reader.stats(by: .utmCampaign, LogFilter(kind: "app_open"))
            #expect(opens.map(\.key) == ["launch", nil, "newsletter"] && opens.map(\.hits) == [4, 1, 1], "\(opens)")
            // The view's whole campaign: its source too (the open said "mail"; the view none).
            let sources = try reader.stats(by: .utmSource, LogFilter(kind: "app_open"))
            #expect(sources.map(\.key) == [nil] && sources.map(\.hits) == [6], "\(sources)")
            #expect(try reader.funnel(by: nil, LogFilter(utmCampaign: "launch")).first?.appOpens == 4)
        }
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        #expect(try connection.queryInteger("SELECT count(*) FROM hits WHERE kind = 'app_open' AND utm_campaign = 'launch'") == 4)
    }

    @Test("an open that loses its view (an earlier open of its token comes in later) takes back its own campaign, and the rollups follow")
    func lostViewRestoresOwnCampaign() throws {
        var view = S.view(nil, at: S.base, campaign: "launch")
        view.viewToken = "viewtoken0000001"
        let later = Self.open(nil, at: S.base + 2 * S.hour, query: "utm_campaign=reshared", token: "viewtoken0000001")
        let earlier = Self.open(nil, at: S.base + S.hour, token: "viewtoken0000001")
        let fixture = try LogFixture()
        try fixture.write([view, later])
        #expect(try fixture.reader().stats(by: .utmCampaign, LogFilter(kind: "app_open")).map(\.key) == ["launch"])
        try fixture.write([earlier])
        for usesRollups in [true, false] {
            let reader = try LogReader(databasePath: fixture.databasePath, usesRollups: usesRollups)
            let opens = try reader.stats(by: .utmCampaign, LogFilter(kind: "app_open"))
            #expect(opens.map(\.key) == ["launch", "reshared"] && opens.map(\.hits) == [1, 1], "rollups \(usesRollups): \(opens)")
        }
        // A rebuild from the rows agrees with what the writer kept.
        let before = try fixture.reader().funnel(by: .utmCampaign, LogFilter())
        try RollupBuilder(connection: SQLiteLogDatabase(path: fixture.databasePath).openConnection(readOnly: false)).rebuild()
        #expect(try fixture.reader().funnel(by: .utmCampaign, LogFilter()) == before)
    }

    @Test("a log written before the rule opens at once, marked as pending; a rollup rebuild brings paired opens to their views' campaigns")
    func migrationBringsTheRule() throws {
        let fixture = try LogFixture()
        let records = Self.splitLog + RandomLog.records(count: 800, seed: 3) + RandomLog.pairedCodes(30) + RandomLog.pairedTokens(30)
        try fixture.write(records)
        let expected = try fixture.reader().funnel(by: .utmCampaign, LogFilter())
        let expectedStats = try fixture.reader().stats(by: .utmCampaign, LogFilter(kind: "app_open"))
        // As version 10 left it: every open with its own campaign (ids follow the records, one
        // writer), the rollups counted so.
        do {
            let connection = try SQLiteConnection(path: fixture.databasePath)
            try connection.transaction(.immediate) {
                for (index, record) in records.enumerated() where record.kind == "app_open" {
                    _ = try connection.execute(
                        "UPDATE hits SET utm_source = ?1, utm_medium = ?2, utm_campaign = ?3, utm_term = ?4, utm_content = ?5 WHERE id = ?6",
                        [
                            SQLValue(record.utmSource), SQLValue(record.utmMedium), SQLValue(record.utmCampaign), SQLValue(record.utmTerm),
                            SQLValue(record.utmContent), .integer(Int64(index + 1)),
                        ])
                }
                try RollupBuilder(connection: connection).rebuildHitRollupsInCurrentTransaction()
                try connection.execute("ALTER TABLE hits DROP COLUMN preview_app")
                try connection.setUserVersion(10)
            }
            #expect(try LogReader(connection: connection, databaseName: "old").stats(by: .utmCampaign, LogFilter(kind: "app_open")) != expectedStats)
        }
        // The upgrade itself moves nothing (the start is not held up); readers say what is pending.
        let upgraded = try LogReader(databasePath: fixture.databasePath)
        #expect(try upgraded.rebuildPendingThroughID() == Int64(records.count))
        #expect(try upgraded.stats(by: .utmCampaign, LogFilter(kind: "app_open")) != expectedStats)
        // `linkhost rollup`, which may run while the server writes, brings the rows to the rule.
        try RollupBuilder(connection: SQLiteLogDatabase(path: fixture.databasePath).openConnection(readOnly: false)).rebuild()
        for usesRollups in [true, false] {
            let reader = try LogReader(databasePath: fixture.databasePath, usesRollups: usesRollups)
            #expect(try reader.funnel(by: .utmCampaign, LogFilter()) == expected, "rollups: \(usesRollups)")
            #expect(try reader.stats(by: .utmCampaign, LogFilter(kind: "app_open")) == expectedStats, "rollups: \(usesRollups)")
            #expect(try reader.rebuildPendingThroughID() == nil)
        }
    }
}
