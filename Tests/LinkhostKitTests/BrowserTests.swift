import Foundation
import LinkLog
import LinkLogSQLite
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// A real browser against a real server: headless Chromium (Debian's, driven by Selenium) loads
/// fallback pages with an iPhone user agent, including hostile links, and reports what ran.
/// scripts/test installs Chromium, chromedriver and Selenium; this test fails if they are missing.
@Suite("Fallback pages in Chromium", .serialized)
struct BrowserTests {
    @Test func pagesRenderSafelyWithWorkingButtonsAndNonBlankScreenshots() throws {
        let python = ProjectPaths.root + "/.build-venv/bin/python"
        #expect(FileManager.default.isExecutableFile(atPath: python), "run scripts/test (it makes .build-venv with Selenium)")
        #expect(Tool.find("chromium") != nil, "scripts/test installs Debian's chromium")
        #expect(Tool.find("chromedriver") != nil, "scripts/test installs Debian's chromium-driver")

        let logFolder = try TemporaryDirectory("linkhost-browser-log")
        let server = try startedServer(try shippedConfiguration(logDatabase: logFolder.path + "/log.sqlite"))
        defer { server.stop() }
        // Screenshots go to a temporary folder, or to LINKHOST_TEST_ARTIFACTS when set (to look at them).
        let folder = try TemporaryDirectory("linkhost-screenshots")
        let screenshots = ProcessInfo.processInfo.environment["LINKHOST_TEST_ARTIFACTS"] ?? folder.path
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let result = try ChildProcess.run(
            python, [ProjectPaths.root + "/Tests/Browser/browser_check.py", "--port", "\(server.port)", "--out", screenshots], timeoutSeconds: 240)
        #expect(result.status == 0, "\(result.output)\n\(result.error)")
        let report = try JSONParser().parse(result.output)
        #expect(report["failures"] == .array([]), "\(report["failures"]?.jsonText() ?? "")")
        let pages = report["pages"]?.arrayElements ?? []
        #expect(pages.count == 9)
        #expect(pages.allSatisfy { $0["ok"] == true })
        for kind in ["mobile", "desktop"] {
            let shot = try #require(report["screenshots"]?[kind])
            #expect(shot["blank"] == false)
            let path = try #require(shot["path"]?.stringValue)
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            #expect(size > 5_000, "\(kind) screenshot is \(size) bytes")
        }
        #expect(report["copyButton"]?["after"] != report["copyButton"]?["before"])
        // Every click the browser made reached the log as an event of the invite's rule.
        server.stop()
        let events = try LogReader(databasePath: logFolder.path + "/log.sqlite").rows(LogFilter(kind: "event"))
        #expect(Set(events.map { $0.event ?? "" }) == Set(report["clicked"]?.arrayElements?.compactMap(\.stringValue) ?? ["none reported"]))
        #expect(events.count == 3)
        #expect(events.allSatisfy { $0.rule == "addfriend" && $0.utmSource == "whatsapp" && $0.path == "/addfriend" })
    }
}
