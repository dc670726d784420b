import Foundation
import LinkLog
import OrderedJSON
import TestSupport
import Testing

/// The dashboard in a real browser: headless Chromium (Debian's, driven by Selenium) signs in and
/// loads a dashboard whose log holds a busy week (`DashboardSampleLog`) and the fallback tests' XSS
/// payloads as UTM values, referrers, user agents and paths; nothing may run, the payloads must
/// read as text, and the page must fit 1280- and 400-pixel-wide viewports (measured in the browser
/// by Tests/Browser/dashboard_check.py, which also saves a screenshot at each width).
///
/// docs/dashboard-1280.png and docs/dashboard-400.png are two of those screenshots: run this test with
/// `LINKHOST_TEST_ARTIFACTS=<folder>` and copy `dashboard-1280.png` and `dashboard-400.png` from there.
@Suite("Admin dashboard in Chromium", .ownThread, .serialized)
struct DashboardBrowserTests {
    static let pwn = "window.__pwned=1"
    static let payloads = [
        "\"><script>\(pwn)</script>", "\"><img src=x onerror=\"\(pwn)\">", "<svg/onload=\(pwn)>", "' autofocus onfocus='\(pwn)",
        "javascript:\(pwn)", "</td></tr></table><iframe srcdoc=\"<script>\(pwn)</script>\">",
    ]

    @Test func hostileLoggedValuesRenderInertWithAScreenshot() throws {
        let python = ProjectPaths.root + "/.build-venv/bin/python"
        #expect(FileManager.default.isExecutableFile(atPath: python), "run scripts/test (it makes .build-venv with Selenium)")
        #expect(Tool.find("chromium") != nil, "scripts/test installs Debian's chromium")
        let harness = try AdminHarness()
        defer { harness.stop() }
        // The week before now, through a writer of its own beside the server's.
        try DashboardSampleLog(now: LogRecord.currentTimeMilliseconds()).write(to: harness.databasePath)
        let allowed = CharacterSet.alphanumerics
        var sent = 0
        for payload in Self.payloads {
            let encoded = payload.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
            _ = try harness.visit(
                "/addfriend?code=SAFE1234&utm_campaign=\(encoded)&utm_source=\(encoded)", headers: [("Referer", "https://x.example/\(payload)")])
            _ = try harness.publicRequest("/\(encoded)", host: "rowhni.com", headers: [("User-Agent", payload)])
            sent += 2
        }
        try harness.waitForRows(sent)
        let tokenFile = try harness.folder.write("token", AdminHarness.token)
        let folder = try TemporaryDirectory("linkhost-dashboard-shots")
        let screenshots = ProcessInfo.processInfo.environment["LINKHOST_TEST_ARTIFACTS"] ?? folder.path
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let expectations = Self.payloads.flatMap { ["--expect", $0] }
        let result = try ChildProcess.run(
            python,
            [
                ProjectPaths.root + "/Tests/Browser/dashboard_check.py", "--port", "\(harness.admin.port)", "--token-file", tokenFile, "--out", screenshots,
                // The default range is the last 7 × 24 hours: the chart has 8 calendar days.
                "--days", "8",
            ] + expectations, timeoutSeconds: 300)
        #expect(result.status == 0, "\(result.output)\n\(result.error)")
        let report = try JSONParser().parse(result.output)
        #expect(report["failures"] == .array([]), "\(report["failures"]?.jsonText() ?? "")")
        #expect(report["beforeLogin"]?["body"] == "login")
        #expect(report["beforeLogin"]?["alerts"]?.numberValue?.intValue == 0)
        #expect(report["payloadsShown"]?.numberValue?.intValue == Self.payloads.count)
        for width in ["1280", "400"] {
            let layout = try #require(report["layout"]?[width])
            let scrollWidth = try #require(layout["scrollWidth"]?.numberValue?.intValue)
            #expect(scrollWidth <= (layout["innerWidth"]?.numberValue?.intValue ?? 0), "\(width): \(scrollWidth)")
            for table in layout["tables"]?.arrayElements ?? [] { #expect(table["inside"] == true, "\(width): \(table.jsonText())") }
            let shot = try #require(report["screenshots"]?[width])
            #expect(shot["blank"] == false)
            #expect((shot["bytes"]?.numberValue?.intValue ?? 0) > 20_000)
        }
    }
}
