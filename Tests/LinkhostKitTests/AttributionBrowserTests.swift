import Foundation
import OrderedJSON
import TestSupport
import Testing

/// Attribution end to end through the real binary: headless Chromium views invitations as an
/// iPhone's browser, an Android phone and Instagram's in-app browser; each page's own links carry
/// its view token; curl reports the app opens those links lead to (the open button, Google Play's
/// install referrer, a copied link, and the copied link passed on); the funnel counts the bypass
/// open and the installs to the row — with the log in SQLite and in PostgreSQL.
@Suite("View tokens in Chromium, through the binary", .ownThread, .serialized)
struct AttributionBrowserTests {
    static let key = "attribution-test-ingest-key-31f"
    static let python = ProjectPaths.root + "/.build-venv/bin/python"
    static var mayBeSkipped: Bool {
        ProcessInfo.processInfo.environment["CI"] != "true"
            && (!FileManager.default.isExecutableFile(atPath: python) || Tool.find("chromium") == nil || TemporaryPostgreSQL.mayBeSkipped)
    }

    @Test(
        .enabled(if: !mayBeSkipped, "chromium, .build-venv or PostgreSQL is missing (scripts/test installs them)"),
        arguments: ["sqlite", "postgresql"])
    func pagesTokensComeBackWithTheOpensAndTheFunnelCountsThem(backend: String) throws {
        let folder = try TemporaryDirectory("linkhost-attribution")
        let postgres = backend == "postgresql" ? try TemporaryPostgreSQL() : nil
        let database = postgres?.url ?? folder.path + "/log.sqlite"
        let config = try AndroidFixture.configFile(in: folder)
        let port = try FreePort.find()
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LINKHOST_") }
        environment["LINKHOST_INGEST_KEY"] = Self.key
        let server = try ChildProcess(
            ProjectPaths.linkhostBinary, ["serve", "--config", config, "--host", "127.0.0.1", "--port", "\(port)", "--log-db", database],
            environment: environment)
        defer {
            server.send(signal: SIGTERM)
            _ = server.waitForExit(timeoutSeconds: 30)
        }
        #expect(server.waitForOutput(containing: "listening on http://127.0.0.1:\(port)"), "\(server.standardError)")

        let pages = [
            ("iphone", "iphone", "http://rowhni.com/addfriend?code=ABC123&utm_campaign=spring"),
            ("android", "android", "http://rowhni.com/joingroup?code=TEST123&utm_source=whatsapp&utm_campaign=spring"),
            ("instagram", "instagram", "http://rowhni.com/addfriend?code=XYZ789&utm_campaign=spring"),
        ]
        let browser = try ChildProcess.run(
            Self.python, [ProjectPaths.root + "/Tests/Browser/token_check.py", "--port", "\(port)"] + pages.flatMap { ["--page", "\($0.0)=\($0.1)=\($0.2)"] },
            timeoutSeconds: 240)
        #expect(browser.status == 0, "\(browser.output)\n\(browser.error)")
        let report = try JSONParser().parse(browser.output)
        func link(_ page: String, _ name: String) throws -> String { try #require(report["pages"]?[page]?[name]?.stringValue, "\(page) \(name)") }
        func token(_ page: String) throws -> String { try #require(report["pages"]?[page]?["tokens"]?.arrayElements?.first?.stringValue) }
        let tokens = try ["iphone", "android", "instagram"].map(token)
        #expect(Set(tokens).count == 3, "each view its own token")

        // The iPhone's open button: the app opened through it (a bypass open).
        let iPhoneOpen = try link("iphone", "open")
        #expect(iPhoneOpen == "rowhni://addfriend?code=ABC123&lh_view=\(tokens[0])")
        // Android: Google Play's referrer holds the campaign and the token; the app reads it after installing.
        let store = try link("android", "store")
        #expect(store.hasPrefix("https://play.google.com/store/apps/details?id=com.yaman.rowhni&referrer="), "\(store)")
        let referrer = try #require(URLComponents(string: store)?.queryItems?.first { $0.name == "referrer" }?.value)
        #expect(referrer == "utm_source=whatsapp&utm_campaign=spring&lh_view=\(tokens[1])")
        #expect(try link("android", "open").contains("lh_view=\(tokens[1])#Intent;"))
        // Instagram's browser: the copied link, which the app finds on the pasteboard after installing.
        let copied = try link("instagram", "copy")
        #expect(copied == "https://rowhni.com/addfriend?code=XYZ789&lh_view=\(tokens[2])")

        func reportOpen(_ body: String) throws -> Int {
            let result = try ChildProcess.run(
                "curl",
                [
                    "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: rowhni.com", "-H", "Authorization: Bearer \(Self.key)", "-H",
                    "Content-Type: application/json", "-d", body, "http://127.0.0.1:\(port)/v1/opens",
                ])
            return Int(result.output) ?? 0
        }
        #expect(try reportOpen(#"{"url": "\#(iPhoneOpen)", "source": "custom-scheme"}"#) == 200)
        #expect(try reportOpen(#"{"url": "https://rowhni.com/joingroup?code=TEST123", "source": "install-referrer", "view": "\#(tokens[1])"}"#) == 200)
        #expect(try reportOpen(#"{"url": "\#(copied)", "source": "pasteboard"}"#) == 200)
        // The copied link passed on and opened by someone else: a shared link, not a second install.
        #expect(try reportOpen(#"{"url": "\#(copied)", "source": "pasteboard"}"#) == 200)
        server.send(signal: SIGTERM)
        #expect(server.waitForExit(timeoutSeconds: 30) == 0)

        func funnel(_ dimension: String) throws -> [JSONValue] {
            let result = try ChildProcess.run(
                ProjectPaths.linkhostBinary, ["stats", "--funnel", "--by", dimension, "--format", "json", "--db", database], environment: environment)
            #expect(result.status == 0, "\(result.error)")
            return try JSONParser().parse(result.output).arrayElements ?? []
        }
        let spring = try #require(try funnel("utm_campaign").first { $0["utm_campaign"] == "spring" })
        #expect(spring["views"] == 3 && spring["opens_after_view"] == 3, "\(spring.jsonText())")
        #expect(spring["bypass_opens"] == 1 && spring["installs"] == 2, "\(spring.jsonText())")
        let byApp = try funnel("in_app")
        let instagram = try #require(byApp.first { $0["in_app"] == "instagram" })
        #expect(instagram["views"] == 1 && instagram["installs"] == 1 && instagram["bypass_opens"] == 0, "\(instagram.jsonText())")
        let others = try #require(byApp.first { $0["in_app"] == "(none)" })
        #expect(others["views"] == 2 && others["bypass_opens"] == 1 && others["installs"] == 1 && others["app_opens"] == 4, "\(others.jsonText())")
        // The rows: each view keeps its token, each open the one it reported, none in a query.
        let rows = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            ["log", "--columns", "kind,event,in_app,view_token,query", "--format", "json", "--db", database, "--limit", "20"], environment: environment)
        let logged = try JSONParser().parse(rows.output).arrayElements ?? []
        #expect(logged.filter { $0["kind"] == "fallback" }.compactMap { $0["view_token"]?.stringValue }.sorted() == tokens.sorted())
        #expect(logged.filter { $0["kind"] == "app_open" }.compactMap { $0["view_token"]?.stringValue }.count == 4)
        #expect(logged.allSatisfy { $0["query"]?.stringValue?.contains("lh_view") != true }, "\(rows.output)")
    }
}
