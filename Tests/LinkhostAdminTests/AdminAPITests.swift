import Foundation
import LinkLog
import LinkLogSQLite
import OrderedJSON
import TestSupport
import Testing

/// The log API against the CLI on the same database, its pages and streamed exports, and its
/// answers to bad parameters. Asked in-process, but for the large export, which the HTTP layer
/// streams chunked.
@Suite("Admin listener: log API", .ownThread)
struct AdminAPITests {
    /// Requests to the public side (in-process): views with campaigns and sources, AASA fetches by
    /// a bot, a bad link and a 404; waits for every row.
    static func fill(_ harness: AdminHarness) throws -> Int {
        var sent = 0
        for index in 0..<12 {
            let campaign = ["spring", "summer", "launch"][index % 3]
            let source = ["whatsapp", "mail"][index % 2]
            #expect(try harness.visit("/addfriend?code=CODE\(index)&utm_campaign=\(campaign)&utm_source=\(source)").status == 200)
            sent += 1
        }
        for _ in 0..<3 {
            _ = try harness.publicRequest("/.well-known/apple-app-site-association", host: "rowhni.com", headers: [("User-Agent", "AASA-Bot/1.0.0")])
            sent += 1
        }
        _ = try harness.visit("/addfriend")
        _ = try harness.visit("/nothing-here")
        _ = try harness.visit("/showthread.php?threadid=4&utm_campaign=forum", host: "forums.somethingawful.com")
        sent += 3
        try harness.waitForRows(sent)
        return sent
    }

    @Test func answersEqualTheCLIsOnTheSameDatabase() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        let rows = try Self.fill(harness)
        let db = harness.databasePath
        for dimension in StatsDimension.allCases {
            for format in ["json", "csv"] {
                let cli = try AdminHarness.linkhost(["stats", "--by", dimension.rawValue, "--format", format, "--db", db])
                #expect(cli.status == 0, "\(cli.error)")
                let api = try harness.admin("/api/v1/stats?by=\(dimension.rawValue)&format=\(format)")
                #expect(api.status == 200)
                #expect(api.text == cli.output, "stats by \(dimension.rawValue) as \(format)")
            }
        }
        let campaign = try harness.admin("/api/v1/stats?by=utm_campaign", headers: [("Accept", "text/csv")])
        #expect(campaign.header("Content-Type")?.hasPrefix("text/csv") == true)
        #expect(campaign.text == (try AdminHarness.linkhost(["stats", "--by", "utm_campaign", "--format", "csv", "--db", db])).output)
        for query in [("", []), ("?by=utm_campaign", ["--by", "utm_campaign"]), ("?by=day&site=rowhni", ["--by", "day", "--site", "rowhni"])] {
            let cli = try AdminHarness.linkhost(["stats", "--funnel", "--format", "json", "--db", db] + query.1)
            #expect(try harness.admin("/api/v1/funnel" + query.0).text == cli.output, "funnel \(query.0)")
        }
        let filtered = try AdminHarness.linkhost(
            [
                "log", "--limit", "5", "--utm-source", "whatsapp", "--since", "1h", "--columns", "id,path,utm_campaign,client_class", "--format", "json",
                "--db", db,
            ])
        #expect(try harness.admin("/api/v1/hits?limit=5&utm-source=whatsapp&since=1h&columns=id,path,utm_campaign,client_class").text == filtered.output)
        let everything = try AdminHarness.linkhost(["log", "--format", "json", "--db", db])
        #expect(try harness.admin("/api/v1/hits?limit=\(rows)").text == everything.output)
    }

    @Test func pagesFollowTheirNextLinksAndExportsStreamEveryRow() throws {
        let harness = try AdminHarness()
        defer { harness.stop() }
        let rows = try Self.fill(harness)
        var target: String? = "/api/v1/hits?limit=4&columns=id"
        var ids: [Int] = []
        var pages = 0
        while let next = target {
            let page = try harness.admin(next)
            #expect(page.status == 200)
            ids += (try JSONParser().parse(page.body).arrayElements ?? []).compactMap { $0["id"]?.numberValue?.intValue }
            target = page.header("Link").flatMap { link in
                guard let start = link.firstIndex(of: "<"), let end = link.firstIndex(of: ">") else { return nil }
                #expect(link.hasSuffix("rel=\"next\""))
                return String(link[link.index(after: start)..<end])
            }
            pages += 1
            if pages > rows { break }
        }
        // The log's order is time then id, newest first; ids alone need not descend (a request's row is
        // stamped when its exchange ends, and the next request may end first on another thread).
        let listed = try AdminHarness.linkhost(["log", "--columns", "id", "--format", "json", "--db", harness.databasePath])
        let expected = (try JSONParser().parse(listed.output).arrayElements ?? []).compactMap { $0["id"]?.numberValue?.intValue }
        #expect(expected.count == rows)
        #expect(ids == expected, "the pages in the log's order, each row once")
        #expect(pages == (rows + 3) / 4)

        // A large export, written straight into the log, streams chunked (no Content-Length: it is
        // never assembled whole) and holds every row once, in order.
        let bulk = 25_000
        // A journal of its own: the server writes this log too, through the journal beside it.
        let writer = try LogWriter(configuration: LogWriterConfiguration(databasePath: harness.databasePath, journalPath: harness.databasePath + ".bulk"))
        for index in 0..<bulk {
            writer.enqueue(
                LogRecord(
                    timestampMilliseconds: LogRecord.currentTimeMilliseconds() - 3_600_000 - Int64(index), siteID: "rowhni", host: "rowhni.com",
                    method: "GET", path: "/addfriend", kind: "fallback", rule: "addfriend", status: 200, durationMicroseconds: 50,
                    utmCampaign: "bulk, \"quoted\""))
        }
        writer.stop()
        let csv = try harness.request(
            port: harness.admin.port, "/api/v1/hits?format=csv&columns=id,utm_campaign", headers: [("Authorization", "Bearer \(AdminHarness.token)")])
        #expect(csv.status == 200)
        #expect(csv.header("Transfer-Encoding") == "chunked")
        #expect(csv.header("Content-Length") == nil)
        let lines = csv.text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.first == "id,utm_campaign")
        #expect(lines.count == rows + bulk + 1)
        #expect(lines.filter { $0.hasSuffix(",\"bulk, \"\"quoted\"\"\"") }.count == bulk)
        let csvIDs = lines.dropFirst().compactMap { Int($0.split(separator: ",").first ?? "") }
        #expect(Set(csvIDs).count == rows + bulk)
        let ndjson = try harness.admin("/api/v1/hits?columns=id&utm-campaign=bulk,%20%22quoted%22", headers: [("Accept", "application/x-ndjson")])
        #expect(ndjson.header("Content-Type") == "application/x-ndjson")
        let objects = try ndjson.text.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        #expect(objects.count == bulk)
    }

    @Test(arguments: [
        ("/api/v1/stats?by=weekday", "by", "utm_campaign"),
        ("/api/v1/funnel?by=kind", "by", "utm_campaign"),
        ("/api/v1/funnel?kind=fallback", "kind", "funnel"),
        ("/api/v1/hits?kind=page", "kind", "app_open"),
        ("/api/v1/hits?client=iphone", "client", "aasa-bot"),
        ("/api/v1/hits?limit=0", "limit", "10000"),
        ("/api/v1/hits?limit=ten", "limit", "10000"),
        ("/api/v1/hits?since=yesterday", "since", "30m"),
        ("/api/v1/hits?format=xml", "format", "ndjson"),
        ("/api/v1/hits?cursor=abc", "cursor", "Link"),
        ("/api/v1/hits?columns=id,password", "columns", "user_agent"),
        ("/api/v1/hits?utm_source=x", "utm_source", "utm-source"),
        ("/api/v1/stats?site=a&site=b", "site", "once"),
    ])
    func badParametersAre400sNamingTheParameterAndTheAllowedValues(target: String, parameter: String, mentioned: String) throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        let response = try harness.admin(target)
        #expect(response.status == 400)
        let body = try JSONParser().parse(response.body)
        #expect(body["error"] == "bad_parameter")
        let detail = body["detail"]?.stringValue ?? ""
        #expect(detail.hasPrefix(parameter + ":"), "\(detail)")
        #expect(detail.contains(mentioned), "\(detail)")
    }

    @Test func anAcceptHeaderOfNoFormatIs406AndOtherMethodsAre405() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        #expect(try harness.admin("/api/v1/stats", headers: [("Accept", "image/png")]).status == 406)
        let post = try harness.adminRequest(
            "/api/v1/stats", method: "POST", headers: [("Authorization", "Bearer \(AdminHarness.token)")], body: Array("x".utf8))
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
    }
}
