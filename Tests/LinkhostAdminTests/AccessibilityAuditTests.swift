import Foundation
import OrderedJSON
import TestSupport
import Testing

/// A WCAG 2.1 A and AA audit with axe-core of every kind of HTML page, in the light and the dark
/// colour scheme, in headless Chromium (Tests/Browser/accessibility_check.py): fallback pages as an
/// iPhone, an Android phone and a computer see them, the 404 and broken-link pages, the admin
/// sign-in page (empty and refused) and the dashboard over a log of hostile values, at a computer's
/// and a phone's width. No page may have a violation.
@Suite("Pages and dashboard pass a WCAG 2.1 AA audit in both colour schemes", .ownThread, .serialized)
struct AccessibilityAuditTests {
    static let python = ProjectPaths.root + "/.build-venv/bin/python"
    static var mayBeSkipped: Bool {
        ProcessInfo.processInfo.environment["CI"] != "true"
            && (!FileManager.default.isExecutableFile(atPath: python) || Tool.find("chromium") == nil || Tool.find("chromedriver") == nil)
    }

    @Test(.enabled(if: !mayBeSkipped, "chromium, chromedriver or .build-venv is missing (scripts/test installs them)"))
    func noPageHasAViolationInEitherColourScheme() throws {
        let harness = try HostileVisits.harness()
        defer { harness.stop() }
        let tokenFile = try harness.folder.write("token", AdminHarness.token)
        let pages = HostileVisits.publicPages.flatMap { ["--page", "\($0.name)=\($0.device)=http://rowhni.com\($0.target)"] }
        let started = Date()
        let result = try ChildProcess.run(
            Self.python,
            [
                ProjectPaths.root + "/Tests/Browser/accessibility_check.py", "--port", "\(harness.server.port)", "--admin-port", "\(harness.admin.port)",
                "--token-file", tokenFile,
            ] + pages, timeoutSeconds: 300)
        print("axe audited both colour schemes in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let report = (try? JSONParser().parse(result.output)) ?? .null
        let failures = report["failures"]?.arrayElements?.compactMap(\.stringValue) ?? ["no report: \(result.output) \(result.error)"]
        #expect(failures.isEmpty, "\(failures.count) violations:\n\(failures.joined(separator: "\n"))")
        #expect(result.status == 0, "\(result.error)")
        let audits = report["audits"]?.arrayElements ?? []
        // Five public pages, two sign-in pages and two dashboards, in each scheme.
        #expect(audits.count == 2 * (HostileVisits.publicPages.count + 4))
        #expect(Set(audits.compactMap { $0["scheme"]?.stringValue }) == ["light", "dark"])
        #expect(audits.allSatisfy { ($0["passes"]?.numberValue?.intValue ?? 0) > 10 }, "axe checked too little: \(audits.map { $0.jsonText() })")
        print("axe-core \(report["axe"]?.stringValue ?? "?")")
    }
}
