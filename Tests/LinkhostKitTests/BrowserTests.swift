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
@Suite("Fallback pages in Chromium", .ownThread, .serialized)
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

    /// The issue's acceptance check, with a campaign in a language other than English too: a
    /// computer's screenshot of the page shows a QR code that zbarimg reads as exactly the link
    /// `linkhost link … --qr png` prints and encodes. An Android phone gets the intent link and
    /// Google Play instead.
    @Test(.enabled(if: !QRScanner.mayBeSkipped, "zbarimg is not installed (apt-get install zbar-tools)"))
    func aComputersScreenshotShowsAQRCodeThatScansAsTheLink() throws {
        let python = ProjectPaths.root + "/.build-venv/bin/python"
        #expect(FileManager.default.isExecutableFile(atPath: python), "run scripts/test (it makes .build-venv with Selenium)")
        let folder = try TemporaryDirectory("linkhost-qr-browser")
        let config = try AndroidFixture.configFile(in: folder)
        let server = try startedServer(try AndroidFixture.configuration())
        defer { server.stop() }
        let screenshots = ProcessInfo.processInfo.environment["LINKHOST_TEST_ARTIFACTS"] ?? folder.path
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let pages: [(name: String, target: String, cli: [String])] = [
            ("invite", "/addfriend?code=ABC123", ["addfriend", "code=ABC123"]),
            (
                "campaign", "/addfriend?code=ABC123&utm_source=newsletter&utm_campaign=Fr%C3%BChlingsfest",
                ["addfriend", "code=ABC123", "--utm-source", "newsletter", "--utm-campaign", "Frühlingsfest"]
            ),
        ]
        let result = try ChildProcess.run(
            python,
            [
                ProjectPaths.root + "/Tests/Browser/qr_check.py", "--port", "\(server.port)", "--out", screenshots, "--android",
                "http://rowhni.com/joingroup?code=TEST123",
            ]
                + pages.flatMap { ["--page", "\($0.name)=http://rowhni.com\($0.target)"] }, timeoutSeconds: 240)
        #expect(result.status == 0, "\(result.output)\n\(result.error)")
        let report = try JSONParser().parse(result.output)
        #expect(report["failures"] == .array([]), "\(report["failures"]?.jsonText() ?? "")")
        for page in pages {
            let png = folder.path + "/\(page.name)-cli.png"
            let printed = try ChildProcess.run(ProjectPaths.linkhostBinary, ["link"] + page.cli + ["--config", config, "--qr", "png", "--output", png])
            #expect(printed.status == 0, "\(printed.error)")
            let link = String(printed.output.prefix { $0 != "\n" })
            #expect(link.hasPrefix("https://rowhni.com/addfriend?code=ABC123&from=qrcode"))
            #expect(try QRScanner.decode(imageAt: png) == [link])
            let shot = try #require(report["pages"]?.arrayElements?.first { $0["name"] == .string(page.name) }?["screenshot"]?.stringValue)
            // The page's code is the same link with the view's token (a phone that scans it and
            // opens the app is paired with this view).
            let scanned = try QRScanner.decode(imageAt: shot)
            #expect(scanned.map(ViewTokens.removed) == [link], "the screenshot \(shot) scans as the link: \(scanned)")
            #expect(scanned.allSatisfy { ViewTokens.all(in: $0).count == 1 }, "\(scanned)")
        }
        let store = report["android"]?["store"]?.stringValue ?? ""
        #expect(store.hasPrefix("https://play.google.com/store/apps/details?id=com.yaman.rowhni&referrer=lh_view%3D"), "\(store)")
        #expect(ViewTokens.all(in: store).count == 1)
    }
}
