import Foundation
import LinkLog
import LinkLogSQLite
import OrderedJSON
import TestSupport
import Testing

/// `linkhost stats --funnel` and `linkhost log --columns`, run as the built binary on a log written
/// by the real writer into a temporary folder.
@Suite("linkhost stats --funnel", .ownThread)
struct FunnelCommandTests {
    /// 2026-11-01T10:00:00Z.
    static let base: Int64 = 1_793_527_200_000
    static let hasher = SecretHasher(key: Array(repeating: 3, count: SecretHasher.keyLength))

    static func record(_ kind: String, at offset: Int64, campaign: String? = nil, event: String? = nil, code: String? = nil) -> LogRecord {
        LogRecord(
            timestampMilliseconds: base + offset, siteID: "rowhni", host: "rowhni.com", method: kind == "fallback" ? "GET" : "POST",
            path: kind == "fallback" ? "/addfriend" : "/v1/" + (kind == "event" ? "events" : "opens"), kind: kind, rule: "addfriend",
            status: kind == "fallback" ? 200 : 204, durationMicroseconds: 100, utmCampaign: campaign,
            event: event, secretToken: code.map { hasher.token(for: $0) })
    }

    /// Two views of the spring campaign, one open-app click, and the app opened with the first code;
    /// one view of an unnamed campaign; WhatsApp's preview fetch of a spring link.
    static func makeDatabase(in folder: TemporaryDirectory) throws -> String {
        let database = folder.path + "/log.sqlite"
        let writer = try LogWriter(databasePath: database)
        for record in [
            record("fallback", at: 0, campaign: "spring", code: "AAAA1111"),
            record("fallback", at: 1000, campaign: "spring", code: "BBBB2222"),
            record("fallback", at: 2000, code: "CCCC3333"),
            record("event", at: 3000, campaign: "spring", event: "open-app"),
            record("app_open", at: 60_000, code: "AAAA1111"),
            preview(at: 500),
        ] {
            writer.enqueue(record)
        }
        writer.stop()
        return database
    }

    /// WhatsApp fetching a spring link to draw its preview.
    static func preview(at offset: Int64) -> LogRecord {
        var preview = record("fallback", at: offset, campaign: "spring")
        preview.userAgent = "WhatsApp/2.23.20.0 A"
        preview.clientClass = ClientClassifier.classify(preview.userAgent).rawValue
        return preview
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try ChildProcess.run(ProjectPaths.linkhostBinary, arguments)
    }

    static let countKeys = ["views", "open_clicks", "store_clicks", "copies", "app_opens", "opens_after_view", "bypass_opens", "installs", "previews"]
    static let rateKeys = ["open_click_rate", "store_click_rate", "copy_rate", "opens_after_view_rate", "bypass_rate", "install_rate"]

    @Test("the binary's views and previews equal the SQL docs/hit-log.md gives, and previews are told by app")
    func previewsEqualTheDocumentedSQL() throws {
        let folder = try TemporaryDirectory()
        let database = try Self.makeDatabase(in: folder)
        let doc = try String(contentsOfFile: ProjectPaths.root + "/docs/hit-log.md", encoding: .utf8)
        let sql = try #require(
            doc.components(separatedBy: "```sql\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }.first { $0.contains("AS previews") })
        var fromSQL: [Int64] = []
        let connection = try SQLiteConnection(path: database, flags: [.readOnly])
        try connection.query(sql.replacingOccurrences(of: ":since", with: "0"), []) { row in fromSQL = row.compactMap(\.integer) }
        let funnel = try Self.run(["stats", "--funnel", "--format", "json", "--db", database])
        let row = try #require(try JSONParser().parse(funnel.output).arrayElements?.first)
        #expect(fromSQL == [3, 1] && row["views"] == 3 && row["previews"] == 1, "\(fromSQL) \(funnel.output)")
        let apps = try Self.run(["stats", "--by", "preview_app", "--kind", "fallback", "--format", "json", "--db", database])
        let groups = try #require(try JSONParser().parse(apps.output).arrayElements)
        #expect(groups.map { $0["preview_app"] } == ["(none)", "whatsapp"], "\(apps.output) \(apps.error)")
    }

    @Test func jsonCarriesTheGroupKeyCountsAndRates() throws {
        let folder = try TemporaryDirectory()
        let database = try Self.makeDatabase(in: folder)

        let grouped = try Self.run(["stats", "--funnel", "--by", "utm_campaign", "--format", "json", "--db", database])
        #expect(grouped.status == 0, "\(grouped.error)")
        let objects = try #require(try JSONParser().parse(grouped.output).arrayElements)
        #expect(objects.map { $0.objectMembers?.map(\.key) ?? [] } == Array(repeating: ["utm_campaign"] + Self.countKeys + Self.rateKeys, count: 2))
        let spring = try #require(objects.first)
        #expect(spring["utm_campaign"] == "spring")
        #expect(spring["views"] == 2)
        #expect(spring["open_clicks"] == 1)
        #expect(spring["opens_after_view"] == 1)
        // The open paired with a spring view counts under spring in app_opens too.
        #expect(spring["app_opens"] == 1)
        #expect(spring["previews"] == 1)
        #expect(spring["open_click_rate"]?.numberValue?.doubleValue == 0.5)
        #expect(spring["copy_rate"]?.numberValue?.doubleValue == 0)
        let none = try #require(objects.last)
        #expect(none["utm_campaign"] == "(none)")
        #expect(none["views"] == 1)
        #expect(none["app_opens"] == 0)

        let total = try Self.run(["stats", "--funnel", "--format", "json", "--db", database])
        #expect(total.status == 0, "\(total.error)")
        let all = try #require(try JSONParser().parse(total.output).arrayElements)
        #expect(all.count == 1)
        #expect(all.first?.objectMembers?.map(\.key) == Self.countKeys + Self.rateKeys)
        #expect(all.first?["views"] == 3)
        #expect(all.first?["previews"] == 1)
        #expect(all.first?["opens_after_view_rate"]?.numberValue?.literal == "0.3333")

        let csv = try Self.run(["stats", "--funnel", "--by", "day", "--format", "csv", "--db", database])
        #expect(csv.output.hasPrefix((["day"] + Self.countKeys + Self.rateKeys).joined(separator: ",") + "\r\n"), "\(csv.output)")

        // A pipe and no COLUMNS: the table is not cut to a width.
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = nil
        let table = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["stats", "--funnel", "--by", "utm_campaign", "--db", database], environment: environment)
        #expect(table.status == 0, "\(table.error)")
        #expect(table.output.contains("50.0%"), "\(table.output)")
        #expect(table.output.split(separator: "\n").first?.hasPrefix("utm_campaign  views  open_clicks") == true, "\(table.output)")

        // A 60-column terminal cannot hold the funnel's eleven columns readably: one record per group.
        environment["COLUMNS"] = "60"
        let narrow = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["stats", "--funnel", "--by", "utm_campaign", "--db", database], environment: environment)
        #expect(narrow.status == 0, "\(narrow.error)")
        let lines = narrow.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(narrow.output)")
        #expect(lines.first?.hasPrefix("utm_campaign") == true && lines.contains { $0.hasPrefix("opens_after_view_rate") }, "\(narrow.output)")
        #expect(!narrow.output.contains("…"), "\(narrow.output)")
    }

    @Test(arguments: [
        (["--by", "kind"], ["--by kind", "utm_campaign, utm_source, utm_medium, rule, day, site"]),
        (["--by", "colour"], ["--by colour", "utm_campaign, utm_source, utm_medium, rule, day, site"]),
        (["--kind", "fallback"], ["--kind", "fixed kinds"]),
    ])
    func refusesWhatTheFunnelCannotDo(arguments: [String], phrases: [String]) throws {
        let folder = try TemporaryDirectory()
        let database = try Self.makeDatabase(in: folder)
        let result = try Self.run(["stats", "--funnel"] + arguments + ["--db", database])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        for phrase in phrases { #expect(result.error.contains(phrase), "\(result.error)") }
    }

    @Test func logShowsTheEventColumnWhenAskedAndTheSecretOnlyByName() throws {
        let folder = try TemporaryDirectory()
        let database = try Self.makeDatabase(in: folder)
        let chosen = try Self.run(["log", "--columns", "kind,event", "--format", "csv", "--db", database])
        #expect(chosen.status == 0, "\(chosen.error)")
        #expect(chosen.output == "kind,event\r\napp_open,\r\nevent,open-app\r\nfallback,\r\nfallback,\r\nfallback,\r\nfallback,\r\n")

        let everything = try JSONParser().parse(try Self.run(["log", "--format", "json", "--db", database]).output)
        let first = try #require(everything.arrayElements?.first)
        #expect(first["event"] == .null)
        #expect(first["secret"] == nil)
        let secret = try Self.run(["log", "--columns", "secret", "--format", "csv", "--limit", "1", "--db", database])
        #expect(secret.output == "secret\r\n\(Self.hasher.token(for: "AAAA1111"))\r\n")

        let bad = try Self.run(["log", "--columns", "kind,colour", "--db", database])
        #expect(bad.status == 64)
        #expect(bad.error.contains("colour") && bad.error.contains("event"), "\(bad.error)")
    }
}
