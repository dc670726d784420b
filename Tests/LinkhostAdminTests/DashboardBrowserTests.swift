import Foundation
import OrderedJSON
import TestSupport
import Testing

/// The dashboard in a real browser: headless Chromium (Debian's, driven by Selenium) signs in and
/// loads a dashboard whose log holds the fallback tests' XSS payloads as UTM values, referrers,
/// user agents and paths; nothing may run, and the payloads must read as text.
@Suite("Admin dashboard in Chromium", .serialized)
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
            [ProjectPaths.root + "/Tests/Browser/dashboard_check.py", "--port", "\(harness.admin.port)", "--token-file", tokenFile, "--out", screenshots]
                + expectations, timeoutSeconds: 240)
        #expect(result.status == 0, "\(result.output)\n\(result.error)")
        let report = try JSONParser().parse(result.output)
        #expect(report["failures"] == .array([]), "\(report["failures"]?.jsonText() ?? "")")
        #expect(report["beforeLogin"] == "login")
        #expect(report["payloadsShown"]?.numberValue?.intValue == Self.payloads.count)
        let shot = try #require(report["screenshot"])
        #expect(shot["blank"] == false)
        #expect((shot["bytes"]?.numberValue?.intValue ?? 0) > 20_000)
    }
}
