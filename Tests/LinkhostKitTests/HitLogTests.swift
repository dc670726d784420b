import Foundation
import LinkLog
import LinkLogSQLite
import LinkhostKit
import OrderedJSON
import Synchronization
import TestSupport
import Testing

/// The hit log: requests answered by a server in this process (the serving path but the socket),
/// rows read back from the SQLite file once `stop` has written them; one test through the built
/// binary under load, stopped by SIGTERM.
@Suite("The hit log", .ownThread, .serialized)
struct HitLogTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    private func configuration(database: String? = nil) throws -> LinkhostConfiguration {
        try shippedConfiguration(logDatabase: database ?? folder.path + "/log.sqlite")
    }

    private func rows(_ filter: LogFilter = LogFilter()) throws -> [LogRow] {
        try LogReader(databasePath: folder.path + "/log.sqlite").rows(filter)
    }

    @Test func utmAndTrackedParametersLandInTheirColumnsAndSecretsAreHashed() throws {
        let server = try LinkhostServer(configuration: try configuration())
        let client = server.inProcess
        _ = try client.request(
            "GET", "/addfriend?code=SECRET42&from=qrcode&utm_source=whatsapp&utm_medium=chat&utm_campaign=launch&utm_term=t&utm_content=c&other=x",
            host: "rowhni.com",
            headers: [
                ("User-Agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1"),
                ("Referer", "https://chat.example/"),
            ], clientAddress: "127.0.0.2")
        _ = try client.request(
            "GET", "/joingroup?code=SECRET42", host: "rowhni.com", headers: [("User-Agent", "WhatsApp/2.23.20 A")], clientAddress: "127.0.0.2")
        _ = try client.request(
            "GET", "/.well-known/apple-app-site-association", host: "forums.somethingawful.com", headers: [("User-Agent", "AASA-Bot/1.0.0")],
            clientAddress: "127.0.0.2")
        let status = try #require(server.stop())
        #expect(status.written == 3)
        let all = try rows()
        #expect(all.count == 3)
        let invite = try #require(all.first { $0.rule == "addfriend" })
        #expect(invite.kind == "fallback")
        #expect(invite.siteID == "rowhni")
        #expect(invite.host == "rowhni.com")
        #expect(invite.path == "/addfriend")
        #expect(invite.status == 200)
        #expect([invite.utmSource, invite.utmMedium, invite.utmCampaign, invite.utmTerm, invite.utmContent] == ["whatsapp", "chat", "launch", "t", "c"])
        let parameters = try JSONParser().parse(try #require(invite.parametersJSON))
        #expect(parameters["from"] == "qrcode")
        #expect(parameters["other"] == nil)
        let token = try #require(parameters["code"]?.stringValue)
        #expect(token.hasPrefix("hmac:"))
        #expect(invite.clientClass == "ios")
        #expect(invite.clientAddress == "127.0.0.0")
        #expect(invite.referrer == "https://chat.example/")
        // The same code on another rule gives the same token: codes can be counted, not read.
        let group = try #require(all.first { $0.rule == "joingroup" })
        #expect(try JSONParser().parse(try #require(group.parametersJSON))["code"]?.stringValue == token)
        #expect(group.clientClass == "link-preview")
        #expect(all.first { $0.kind == "aasa" }?.clientClass == "aasa-bot")
        // Nowhere in clear: not in the database, its WAL or shared memory, nor in any CLI output.
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + file))
            #expect(bytes.range(of: Data("SECRET42".utf8)) == nil, "SECRET42 is in \(file)")
        }
        for format in ["table", "json", "csv"] {
            let output = try ChildProcess.run(ProjectPaths.linkhostBinary, ["log", "--db", folder.path + "/log.sqlite", "--format", format])
            #expect(output.status == 0)
            #expect(!output.output.contains("SECRET42"))
        }
    }

    @Test func secretPathSegmentsAreHashedInThePathColumn() throws {
        let site = """
            {"id": "invites", "hosts": ["invite.example"], "app": {"name": "I", "appIDs": ["ABCDE12345.com.i"], "scheme": "inv"},
             "links": [{"name": "invite", "path": "/i/{code}", "params": {"code": {"type": "inviteCode", "secret": true}}, "app": "inv://i/{code}", "title": "Invite", "examples": ["/i/TEST123"]}]}
            """
        var overrides = ConfigurationOverrides()
        overrides.listenAddress = .init("127.0.0.1", from: "the test")
        overrides.port = .init(0, from: "the test")
        overrides.databasePath = .init(folder.path + "/log.sqlite", from: "the test")
        let text = configText(sites: [site], log: #"{"clientAddress": "omit"}"#)
        let configuration = try ConfigurationLoader.parse(Array(text.utf8), baseDirectory: ProjectPaths.root, overrides: overrides)
        let server = try LinkhostServer(configuration: configuration)
        #expect(try server.inProcess.request("GET", "/i/PATHSECRET", host: "invite.example").status == 200)
        // A broken link of the rule (the code is not UTF-8) carries its secret in the path as well.
        #expect(try server.inProcess.request("GET", "/i/BROKEN%FFSECRET", host: "invite.example").status == 400)
        server.stop()
        let logged = try rows()
        #expect(logged.map(\.kind).sorted() == ["bad_link", "fallback"])
        for row in logged {
            #expect(row.path.hasPrefix("/i/hmac%3A"), "\(row.path)")
            #expect(!row.path.contains("SECRET"))
            #expect(row.clientAddress == nil)
        }
        #expect(Set(logged.map(\.path)).count == 2)
    }

    @Test func theQueryIsKeptAsSentWithSecretValuesHashed() throws {
        let server = try LinkhostServer(configuration: try configuration())
        let client = server.inProcess
        _ = try client.request("GET", "/addfriend?code=SECRET42&from=qrcode&code=OTHER7", host: "rowhni.com")
        _ = try client.request("GET", "/showthread.php?threadid=456&pagenumber=2&utm_source=x", host: "forums.somethingawful.com")
        _ = try client.request("GET", "/forumdisplay.php", host: "forums.somethingawful.com")
        server.stop()
        let all = try rows()
        let invite = try #require(all.first { $0.rule == "addfriend" })
        let parameters = try JSONParser().parse(try #require(invite.parametersJSON))
        let token = try #require(parameters["code"]?.stringValue)
        // Every occurrence of the secret is hashed, as the params column hashes the first.
        let second = try #require(invite.query?.split(separator: "&").last.map(String.init))
        #expect(invite.query == "code=\(token.replacingOccurrences(of: ":", with: "%3A"))&from=qrcode&" + second)
        #expect(second.hasPrefix("code=hmac%3A") && second != "code=\(token.replacingOccurrences(of: ":", with: "%3A"))")
        #expect(all.first { $0.rule == "threadPage" }?.query == "threadid=456&pagenumber=2&utm_source=x")
        let forum = try #require(all.first { $0.path == "/forumdisplay.php" })
        #expect(forum.query == nil)
    }

    /// Eight threads answered at once: the responder, the metrics and the log writer's queue under
    /// contention (that every exchange the HTTP layer completes reaches the observer is its own
    /// test, in ExchangeStateTests and through the binary below).
    @Test func concurrentRequestsGiveExactlyOneRowEach() throws {
        let server = try LinkhostServer(configuration: try configuration())
        let clients = 8
        let perClient = 250
        let counter = SharedCounter()
        ParallelThreads.run(clients) { index in
            let client = server.inProcess
            for request in 0..<perClient {
                let target = request % 2 == 0 ? "/showthread.php?threadid=\(index)&utm_source=load" : "/.well-known/apple-app-site-association"
                if (try? client.request("GET", target, host: "forums.somethingawful.com"))?.status == 200 { _ = counter.increment() }
            }
        }
        let received = counter.value
        let status = try #require(server.stop())
        #expect(received == clients * perClient)
        #expect(status.written == received)
        #expect(status.dropped == 0)
        let reader = try LogReader(databasePath: folder.path + "/log.sqlite")
        #expect(try reader.count(LogFilter()) == received)
        #expect(try reader.count(LogFilter(utmSource: "load")) == received / 2)
        let byKind = try reader.stats(by: .kind, LogFilter())
        #expect(byKind.map(\.hits).reduce(0, +) == received)
    }

    @Test func aDatabaseThatCannotBeWrittenDoesNotStopPagesAndIsReported() throws {
        // A regular file where the database's folder should be: cannot be opened, even as root.
        let blocker = try folder.write("not-a-folder", "x")
        // The journal is elsewhere (one that cannot be made stops the start: `HitLogTests`' next test).
        let server = try LinkhostServer(
            configuration: try shippedConfiguration(logDatabase: blocker + "/log.sqlite", settings: ["log.journal.path": .string(folder.path + "/journal")]))
        let client = server.inProcess
        #expect(try client.request("GET", "/addfriend?code=TEST123", host: "rowhni.com").status == 200)
        #expect(try client.request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com").status == 200)
        var health = JSONValue.null
        waitUntil {
            health = server.healthDetails
            return health["log"]?["healthy"] == false
        }
        #expect(health["status"] == "degraded")
        #expect(health["log"]?["healthy"] == false)
        #expect(health["log"]?["lastError"]?.stringValue?.isEmpty == false)
        #expect(health["log"]?["notes"]?.arrayElements?.first?.stringValue?.contains("secret parameters are not logged") == true)
        // The public /healthz says as much, and not where the database is or why it fails.
        let published = try client.request("GET", "/healthz", host: "rowhni.com")
        #expect(try JSONParser().parse(published.body) == .object([JSONMember("status", "degraded")]), "\(published.text)")
        #expect(!published.text.contains(blocker))
        // The rows wait in the journal; once the cause is gone they are written.
        try FileManager.default.removeItem(atPath: blocker)
        let status = try #require(server.stop())
        #expect(status.dropped == 0)
        #expect(status.written >= 2)
        #expect(try LogReader(databasePath: blocker + "/log.sqlite").count(LogFilter(kind: "fallback")) == 1)
    }

    @Test func aJournalThatCannotBeMadeStopsTheStartWithItsPath() throws {
        let blocker = try folder.write("not-a-folder", "x")
        let error = #expect(throws: (any Error).self) {
            try LinkhostServer(
                configuration: try shippedConfiguration(
                    logDatabase: folder.path + "/log.sqlite", settings: ["log.journal.path": .string(blocker + "/journal")]))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains(blocker), "\(String(describing: error))")
    }

    @Test func sigtermUnderLoadLogsEveryResponseAClientReceived() throws {
        let database = folder.path + "/log.sqlite"
        let child = try ChildProcess(
            ProjectPaths.linkhostBinary, ["serve", "--config", ProjectPaths.shippedConfig, "--host", "127.0.0.1", "--port", "0", "--log-db", database])
        #expect(child.waitForOutput(containing: "listening on http://"))
        let line = child.standardOutput.split(separator: "\n").first { $0.contains("listening on http://") } ?? ""
        let port = Int(line.split(separator: ":").last ?? "") ?? 0
        let received = SharedCounter()
        let stopAt = 1500
        ParallelThreads.run(6) { index in
            guard var client = try? RawHTTPClient(port: port, timeoutSeconds: 5) else { return }
            for request in 0..<100_000 {
                do {
                    let response = try client.request("GET", "/joingroup?code=CODE\(index)X\(request % 7)&utm_campaign=term", host: "rowhni.com")
                    guard response.status == 200, response.text.hasSuffix("</html>\n") else { return }
                    if received.increment() == stopAt { child.send(signal: SIGTERM) }
                } catch {
                    // The server is stopping: reconnect, and give up once it refuses.
                    guard let next = try? RawHTTPClient(port: port, timeoutSeconds: 5) else { return }
                    client = next
                }
            }
        }
        #expect(child.waitForExit(timeoutSeconds: 30) == 0)
        let count = received.value
        #expect(count >= stopAt)
        let reader = try LogReader(databasePath: database)
        #expect(try reader.count(LogFilter(kind: "fallback", utmCampaign: "term")) == count)
        #expect(child.standardOutput.contains("0 dropped, 0 not written"))
    }
}

@Suite("linkhost log and stats", .ownThread, .serialized)
struct LogCommandTests {
    /// A database with known rows, made by a server answering in this process.
    static func makeDatabase(in folder: TemporaryDirectory) throws -> String {
        let server = try LinkhostServer(configuration: try shippedConfiguration(logDatabase: folder.path + "/log.sqlite"))
        let client = server.inProcess
        for (target, host) in [
            ("/addfriend?code=TEST123&utm_source=whatsapp&utm_campaign=spring", "rowhni.com"),
            ("/addfriend?code=TEST124&utm_source=whatsapp&utm_campaign=spring", "rowhni.com"),
            ("/joingroup?code=ABC123&utm_source=qr&from=qrcode", "rowhni.com"),
            ("/addfriend", "rowhni.com"),
            ("/showthread.php?threadid=456", "forums.somethingawful.com"),
            ("/nowhere", "forums.somethingawful.com"),
            ("/.well-known/apple-app-site-association", "forums.somethingawful.com"),
        ] {
            _ = try client.request("GET", target, host: host)
        }
        server.stop()
        return folder.path + "/log.sqlite"
    }

    @Test func filtersAndFormats() throws {
        let folder = try TemporaryDirectory()
        let database = try Self.makeDatabase(in: folder)
        func run(_ arguments: [String]) throws -> String {
            let result = try ChildProcess.run(ProjectPaths.linkhostBinary, arguments + ["--db", database])
            #expect(result.status == 0, "\(arguments): \(result.error)")
            return result.output
        }
        let kinds = try JSONParser().parse(try run(["stats", "--by", "kind", "--format", "json"]))
        #expect(
            kinds
                == .array([
                    .object([JSONMember("kind", "fallback"), JSONMember("hits", 4)]),
                    .object([JSONMember("kind", "aasa"), JSONMember("hits", 1)]),
                    .object([JSONMember("kind", "bad_link"), JSONMember("hits", 1)]),
                    .object([JSONMember("kind", "not_found"), JSONMember("hits", 1)]),
                ]))
        let whatsapp = try JSONParser().parse(try run(["log", "--format", "json", "--utm-source", "whatsapp"]))
        #expect(whatsapp.arrayElements?.count == 2)
        #expect(whatsapp.arrayElements?.allSatisfy { $0["utm_source"] == "whatsapp" && $0["utm_campaign"] == "spring" && $0["rule"] == "addfriend" } == true)
        let csv = try run(["log", "--format", "csv", "--rule", "joingroup"])
        let lines = csv.split(separator: "\r\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("id,time,ts_ms,site,host,method,path,kind,rule,status") == true)
        #expect(lines.last?.contains("{\"\"from\"\":\"\"qrcode\"\"") == true || lines.last?.contains("\"\"from\"\":\"\"qrcode\"\"") == true)
        let sources = try run(["stats", "--by", "utm_source", "--format", "csv"])
        #expect(sources.hasPrefix("utm_source,hits\r\n"))
        #expect(sources.contains("whatsapp,2\r\n"))
        #expect(sources.contains("(none),4\r\n"))
        let table = try run(["log", "--host", "forums.somethingawful.com", "--kind", "not_found"])
        #expect(table.split(separator: "\n").count == 3)
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= 120 })
        let recent = try JSONParser().parse(try run(["log", "--format", "json", "--since", "1h", "--limit", "3"]))
        #expect(recent.arrayElements?.count == 3)
        let future = try JSONParser().parse(try run(["log", "--format", "json", "--since", "2099-01-01"]))
        #expect(future == .array([]))
        let days = try JSONParser().parse(try run(["stats", "--by", "day", "--format", "json"]))
        #expect(days.arrayElements?.first?["hits"] == 7)
    }

    @Test(arguments: [
        (["stats", "--by", "colour"], "rule"),
        (["log", "--format", "xml"], "table"),
        (["log", "--kind", "weird"], "fallback"),
        (["log", "--since", "soon"], "24h"),
        (["log", "--client", "robot"], "aasa-bot"),
        (["log", "--limit", "0"], "1 or more"),
        (["log", "--limit", "-3"], "--limit -3 must be 1 or more"),
        (["log", "--since", "7d", "--until", "8d"], "--since 7d is not before --until 8d"),
        (["stats", "--since", "2026-11-02", "--until", "2026-11-01"], "the later time goes in --until"),
    ])
    func badFlagValuesNameTheAllowedValues(arguments: [String], allowed: String) throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, arguments + ["--db", "/nonexistent.sqlite"])
        #expect(result.status == 64)
        #expect(result.error.contains(allowed), "\(result.error)")
    }

    @Test func rollupCountsRowsLoadedWithPlainSQL() throws {
        let folder = try TemporaryDirectory()
        let database = try Self.makeDatabase(in: folder)
        // A bulk load behind the writer's back, as with the sqlite3 shell: stats cannot see it yet.
        let connection = try SQLiteConnection(path: database)
        try connection.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
            INSERT INTO hits (ts_ms, site, host, method, path, kind, status, duration_us)
            SELECT (SELECT MAX(ts_ms) FROM hits) - i, 'awful', 'forums.somethingawful.com', 'GET', '/.well-known/apple-app-site-association', 'aasa', 200, 90 FROM n
            """)
        func aasaHits() throws -> JSONValue? {
            let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["stats", "--by", "kind", "--kind", "aasa", "--format", "json", "--db", database])
            #expect(result.status == 0, "\(result.error)")
            return try JSONParser().parse(result.output).arrayElements?.first?["hits"]
        }
        #expect(try aasaHits() == 1)

        let rollup = try ChildProcess.run(ProjectPaths.linkhostBinary, ["rollup", "--db", database])
        #expect(rollup.status == 0, "\(rollup.error)")
        #expect(rollup.output.contains("rebuilt from 17 hits"), "\(rollup.output)")
        // Not a terminal: no progress lines.
        #expect(rollup.error.isEmpty, "\(rollup.error)")
        #expect(try aasaHits() == 11)

        let missing = try ChildProcess.run(ProjectPaths.linkhostBinary, ["rollup", "--db", folder.path + "/none.sqlite"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("no log database at"), "\(missing.error)")
    }

    @Test func aMissingDatabaseIsExplained() throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["log", "--db", "/nonexistent/log.sqlite"])
        #expect(result.status == 2)
        #expect(result.error.contains("no log database at /nonexistent/log.sqlite"))
    }
}

/// A counter shared by concurrent test clients.
final class SharedCounter: Sendable {
    private let storage = Atomic<Int>(0)

    /// Adds one and returns the new value.
    func increment() -> Int { storage.add(1, ordering: .relaxed).newValue }

    var value: Int { storage.load(ordering: .relaxed) }
}
