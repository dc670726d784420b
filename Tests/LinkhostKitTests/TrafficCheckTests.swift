import Foundation
import LinkLog
import LinkLogSQLite
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// `check --against-log`: logged links answered under the AASA files of two configs, in-process
/// (`TrafficCheck`, `LogReader.links`), and once through the built binary.
@Suite("AASA changes checked against the log")
struct TrafficCheckTests {
    static let forums = "forums.somethingawful.com"

    /// The shipped config without the awful site's rules named in `removed`.
    static func configuration(removing removed: Set<String> = [], adding added: [JSONValue] = [], siteIndex: Int = 1) throws -> LinkhostConfiguration {
        try shippedConfiguration { document in
            guard var sites = document["sites"]?.arrayElements, var members = sites[siteIndex].objectMembers,
                let position = members.firstIndex(where: { $0.key == "links" }), case .array(let rules) = members[position].value
            else { return document }
            members[position].value = .array(rules.filter { !removed.contains($0["name"]?.stringValue ?? "") } + added)
            sites[siteIndex] = .object(members)
            return document.setting("sites", to: .array(sites))
        }
    }

    static func link(_ path: String, _ query: String?, rule: String?, hits: Int, host: String = forums, site: String = "awful", old: Bool = false) -> LoggedLink
    {
        LoggedLink(siteID: site, host: host, path: path, query: query, isBeforeQueries: old, rule: rule, hits: hits)
    }

    static let forumLinks = [
        link("/showthread.php", "threadid=456&pagenumber=2", rule: "threadPage", hits: 7),
        link("/showthread.php", "threadid=9&pagenumber=3&noseen=1", rule: "threadPage", hits: 2),
        link("/showthread.php", "threadid=456", rule: "thread", hits: 4),
        link("/showthread.php", "threadid=456&goto=lastpost", rule: "threadLastPage", hits: 3),
        link("/forumdisplay.php", "forumid=1", rule: "forum", hits: 1),
    ]

    /// The thread rules that name no `goto`: without them, a plain thread or page link opens nothing.
    static let plainThreadRules: Set<String> = ["threadPageSingleUser", "threadSingleUser", "threadPage", "thread"]

    @Test func theSameConfigChangesNothing() throws {
        let current = try Self.configuration()
        let check = TrafficCheck(links: Self.forumLinks, baseline: current, new: current)
        #expect(check.stopping.isEmpty && check.starting.isEmpty && check.notCheckable.isEmpty)
        #expect(!check.stopsAny)
        #expect(check.links == 5 && check.hits == 17)
        // Links logged before queries were kept cannot change either when a host's file is the
        // same bytes: they are not matched at all, so none is 'not checkable'.
        let old = Self.forumLinks.map { Self.link($0.path, nil, rule: $0.rule, hits: $0.hits, old: true) }
        #expect(TrafficCheck(links: old, baseline: current, new: current).notCheckable.isEmpty)
        // A change to Rowhni's rules leaves the forums' file and their links alone.
        let rowhniOnly = try Self.configuration(removing: ["joingroup"], siteIndex: 0)
        #expect(TrafficCheck(links: old, baseline: current, new: rowhniOnly).notCheckable.isEmpty)
        #expect(!TrafficCheck(links: old, baseline: current, new: try Self.configuration(removing: ["thread"])).notCheckable.isEmpty)
    }

    @Test func removedThreadRulesStopTheirLoggedLinksPerRuleWithCountsAndTheBusiestExample() throws {
        let check = TrafficCheck(links: Self.forumLinks, baseline: try Self.configuration(), new: try Self.configuration(removing: Self.plainThreadRules))
        #expect(check.stopsAny)
        #expect(
            check.stopping == [
                TrafficCheck.Group(siteID: "awful", rule: "threadPage", links: 2, hits: 9, example: Self.forums + "/showthread.php?threadid=456&pagenumber=2"),
                TrafficCheck.Group(siteID: "awful", rule: "thread", links: 1, hits: 4, example: Self.forums + "/showthread.php?threadid=456"),
            ])
        #expect(check.starting.isEmpty)
        #expect(
            check.text.contains(
                "would stop opening the app:\n  awful threadPage: 2 links, 9 hits, e.g. \(Self.forums)/showthread.php?threadid=456&pagenumber=2\n"))
        #expect(check.json["stop"]?.arrayElements?.count == 2)
        #expect(check.json["stop"]?.arrayElements?.first?["hits"] == 9)
        // Back again: the same links start opening the app.
        let back = TrafficCheck(links: Self.forumLinks, baseline: try Self.configuration(removing: Self.plainThreadRules), new: try Self.configuration())
        #expect(!back.stopsAny)
        #expect(back.starting.map(\.rule) == ["threadPage", "thread"])
    }

    @Test func aRuleCoveredByABroaderOneStopsNothingWhenRemoved() throws {
        // `thread` asks only for a thread id, so page links still open the app without `threadPage`.
        let check = TrafficCheck(links: Self.forumLinks, baseline: try Self.configuration(), new: try Self.configuration(removing: ["threadPage"]))
        #expect(!check.stopsAny)
        #expect(check.starting.isEmpty)
    }

    @Test func aHashedSecretIsMatchedAsAValueOfItsParameterType() throws {
        let token = SecretHasher(key: Array(repeating: 1, count: 32)).token(for: "SECRET42")
        let encoded = token.replacingOccurrences(of: ":", with: "%3A")
        let invite = Self.link("/addfriend", "code=\(encoded)&from=qrcode", rule: "addfriend", hits: 3, host: "rowhni.com", site: "rowhni")
        #expect(TrafficCheck.matchableURL(invite, sites: try Self.configuration().sites) == "https://rowhni.com/addfriend?code=TEST123&from=qrcode")
        #expect(LinkForm.isHashedSecret(Substring(token)) && LinkForm.isHashedSecret(Substring(encoded)) && LinkForm.isHashedSecret("-"))
        #expect(!LinkForm.isHashedSecret("hmac:short") && !LinkForm.isHashedSecret("TEST123"))
        let check = TrafficCheck(
            links: [invite], baseline: try Self.configuration(), new: try Self.configuration(removing: ["addfriend"], siteIndex: 0))
        #expect(check.stopping.map(\.example) == ["rowhni.com/addfriend?code=\(encoded)&from=qrcode"])
        #expect(!check.text.contains("SECRET42") && !check.text.contains("TEST123"))
    }

    @Test func linksLoggedBeforeQueriesAreAnsweredByPathOnlyWherePathAloneDecides() throws {
        let faq = JSONValue.object([
            JSONMember("name", "faq"), JSONMember("path", "/faq.php"), JSONMember("app", "awful://faq"),
            JSONMember("title", .object([JSONMember("en", "FAQ"), JSONMember("de", "FAQ")])), JSONMember("examples", ["/faq.php"]),
        ])
        let links = [
            Self.link("/faq.php", nil, rule: "faq", hits: 5, old: true),
            Self.link("/showthread.php", nil, rule: "thread", hits: 6, old: true),
            Self.link("/nowhere.php", nil, rule: nil, hits: 1, old: true),
        ]
        let check = TrafficCheck(links: links, baseline: try Self.configuration(adding: [faq]), new: try Self.configuration())
        // The FAQ rule's path alone decides: it stops. A thread link's query decides: not checkable.
        // A path no rule covers opens nothing under either file: no change.
        #expect(check.stopping.map(\.rule) == ["faq"])
        #expect(check.notCheckable.map { [$0.rule ?? "-": $0.hits] } == [["thread": 6]])
        #expect(check.text.contains("not checkable"))
    }

    @Test func theLogReadsDistinctLinksOfTheWindowWithCountsAndMarksRowsFromBeforeQueries() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/log.sqlite"
        let base: Int64 = 1_793_527_200_000
        func record(_ kind: String, _ query: String?, at offset: Int64) -> LogRecord {
            LogRecord(
                timestampMilliseconds: base + offset, siteID: "awful", host: Self.forums, method: "GET", path: "/showthread.php", kind: kind,
                rule: "thread", status: 200, durationMicroseconds: 1, query: query)
        }
        let writer = try LogWriter(databasePath: path)
        for entry in [
            record("fallback", "threadid=1", at: 0), record("app_open", "threadid=1", at: 10), record("fallback", "threadid=2", at: 20),
            record("aasa", nil, at: 30), record("fallback", "threadid=3", at: -1000),
        ] {
            writer.enqueue(entry)
        }
        writer.stop()
        let reader = try LogReader(databasePath: path)
        #expect(
            try reader.links(since: base, until: nil) == [
                Self.link("/showthread.php", "threadid=1", rule: "thread", hits: 2), Self.link("/showthread.php", "threadid=2", rule: "thread", hits: 1),
            ])
        #expect(try reader.links(since: base + 15, until: base + 25).map(\.query) == ["threadid=2"])
        // Back to version 6, as an older linkhost left it: its rows did not keep their queries.
        let connection = try SQLiteConnection(path: path)
        try connection.execute(
            """
            UPDATE hits SET query = NULL; ALTER TABLE hits DROP COLUMN query; DROP INDEX hits_view_token; DROP INDEX hits_open_token; DROP INDEX hits_bypass_time;
            ALTER TABLE hits DROP COLUMN view_token;
            ALTER TABLE hits DROP COLUMN in_app; ALTER TABLE hits DROP COLUMN referrer_host; ALTER TABLE hits DROP COLUMN preview_app;
            DROP TABLE view_chain; DELETE FROM meta WHERE key = 'view_chain_through';
            CREATE INDEX hits_secret_time ON hits (secret, ts_ms) WHERE secret IS NOT NULL;
            PRAGMA user_version = 6;
            """)
        let migrated = try LogReader(databasePath: path)
        let next = try LogWriter(databasePath: path)
        next.enqueue(record("fallback", nil, at: 40))
        next.stop()
        let links = try migrated.links(since: base, until: nil)
        #expect(links.filter(\.isBeforeQueries).map(\.hits) == [3])
        #expect(links.filter { !$0.isBeforeQueries }.map(\.hits) == [1])
        #expect(try migrated.totalRowCount() == 6)
    }
}

/// `linkhost check --against-log` through the built binary: forum links served (and logged) by a
/// server in this process, then a config without the plain thread rules checked against them.
@Suite("linkhost check --against-log", .ownThread)
struct TrafficCheckCommandTests {
    @Test func forumLinksThatWouldStopOpeningTheAppAreListedWithExitStatus1() throws {
        let folder = try TemporaryDirectory()
        let database = folder.path + "/log.sqlite"
        let server = try LinkhostServer(configuration: try shippedConfiguration(logDatabase: database))
        for target in ["/showthread.php?threadid=456&pagenumber=2", "/showthread.php?threadid=456&pagenumber=2", "/showthread.php?threadid=7&goto=lastpost"] {
            #expect(try server.inProcess.request("GET", target, host: TrafficCheckTests.forums).status == 200)
        }
        server.stop()
        var edited = try EditableConfig(in: folder, name: "new.json")
        edited.editSite(1) { members in
            guard let position = members.firstIndex(where: { $0.key == "links" }), case .array(let rules) = members[position].value else { return }
            members[position].value = .array(rules.filter { !TrafficCheckTests.plainThreadRules.contains($0["name"]?.stringValue ?? "") })
        }
        let new = try edited.write()
        let arguments = ["check", "--against-log", "1h", "--baseline", ProjectPaths.shippedConfig, "--config", new, "--db", database]
        let stopping = try ChildProcess.run(ProjectPaths.linkhostBinary, arguments)
        #expect(stopping.status == 1, "\(stopping.error)")
        #expect(
            stopping.output.contains(
                "would stop opening the app:\n  awful threadPage: 1 link, 2 hits, e.g. \(TrafficCheckTests.forums)/showthread.php?threadid=456&pagenumber=2"))
        #expect(stopping.output.contains("2 logged links (3 hits): 1 would stop opening the app, 0 would start"), "\(stopping.output)")
        let json = try ChildProcess.run(ProjectPaths.linkhostBinary, arguments + ["--json"])
        #expect(json.status == 1)
        #expect(try JSONParser().parse(json.output)["stop"]?.arrayElements?.first?["rule"] == "threadPage")
        let unchanged = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            ["check", "--against-log", "1h", "--baseline", ProjectPaths.shippedConfig, "--config", ProjectPaths.shippedConfig, "--db", database])
        #expect(unchanged.status == 0, "\(unchanged.error)")
    }

    @Test func aBadWindowAnEmptyLogOrAConfigThatDoesNotLoadIsExit2NamingWhich() throws {
        let folder = try TemporaryDirectory()
        let empty = folder.path + "/empty.sqlite"
        try LogWriter(databasePath: empty).stop()
        let broken = folder.path + "/broken.json"
        try Data("{".utf8).write(to: URL(fileURLWithPath: broken))
        let config = ProjectPaths.shippedConfig
        let cases: [([String], String)] = [
            (["--against-log", "yesterday", "--config", config, "--db", empty], "--against-log yesterday:"),
            (["--against-log", "1h", "--baseline", config, "--config", config, "--db", empty], "the log has no rows"),
            (["--against-log", "1h", "--baseline", config, "--config", broken, "--db", empty], "--config \(broken): the config cannot be used"),
            (["--against-log", "1h", "--baseline", broken, "--config", config, "--db", empty], "--baseline \(broken): the config cannot be used"),
        ]
        for (arguments, message) in cases {
            let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.error)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
    }
}
