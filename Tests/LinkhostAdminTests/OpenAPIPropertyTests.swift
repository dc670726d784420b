import Foundation
import LinkhostAdmin
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// Property-based testing of both OpenAPI documents against the real server: schemathesis (from
/// PyPI, in the tests' virtual environment) generates requests from each document — values the
/// schema allows, which must be accepted, and values it refuses, which must be refused — and checks
/// every answer: no server error, a documented status with the documented content type, body and
/// headers, 401 without credentials, 405 with `Allow` for other methods. A fixed seed and a bounded
/// number of examples make the run the same every time.
@Suite("OpenAPI documents held to the server by property-based testing", .ownThread, .serialized)
struct OpenAPIPropertyTests {
    static let schemathesis = ProjectPaths.root + "/.build-venv/bin/st"
    static let ingestKey = "property-test-ingest-key-7c41d2"
    static var mayBeSkipped: Bool {
        ProcessInfo.processInfo.environment["CI"] != "true" && !FileManager.default.isExecutableFile(atPath: schemathesis)
    }

    /// The shipped config with both sites taking as many reports as schemathesis sends (the rate
    /// limit is tested on its own; here a 429 would only hide answers).
    static func configuration(in folder: TemporaryDirectory) throws -> LinkhostConfiguration {
        try AdminHarness.configuration(in: folder) { document in
            let unlimited = JSONValue.object([JSONMember("burst", 1_000_000), JSONMember("perSecond", 1_000_000)])
            return document.setting(["sites"], to: .array((document["sites"]?.arrayElements ?? []).map { $0.setting("ingest.rateLimit", to: unlimited) }))
        }
    }

    /// Starts schemathesis on `document` (a path in the repository) against `port`.
    static func start(_ document: String, port: Int, headers: [String], config: String, in folder: TemporaryDirectory) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["SCHEMATHESIS_HOOKS"] = ProjectPaths.root + "/Tests/OpenAPI/schemathesis_hooks.py"
        // Hypothesis keeps nothing between runs (no example database) and writes nothing here.
        environment["HYPOTHESIS_STORAGE_DIRECTORY"] = folder.path + "/hypothesis"
        let arguments =
            [
                "--config-file", ProjectPaths.root + "/Tests/OpenAPI/" + config, "--no-color", "run", ProjectPaths.root + "/" + document,
                "--url", "http://127.0.0.1:\(port)", "--checks", "all", "--max-examples", "30", "--seed", "20261125", "--workers", "1",
                "--generation-database", "none", "--phases", "examples,coverage,fuzzing", "--request-timeout", "10", "--continue-on-failure",
            ] + headers.flatMap { ["--header", $0] }
        return try ChildProcess(schemathesis, arguments, currentDirectory: folder.path, environment: environment)
    }

    /// Waits for a run to end; returns its exit status and what it printed, and prints its summary.
    static func finish(_ run: ChildProcess, _ document: String, started: Date) -> (status: Int32, output: String) {
        let status = run.waitForExit(timeoutSeconds: 240) ?? -1
        let lines = run.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let cases = lines.firstIndex(of: "Test cases:").map { lines[$0 + 1] } ?? "no summary"
        let warnings = lines.filter { $0.hasPrefix("⚠️") }
        print("schemathesis on \(document): exit \(status), done by \(String(format: "%.1f", Date().timeIntervalSince(started))) s; \(cases) \(warnings)")
        return (status, run.standardOutput + run.standardError)
    }

    @Test(.enabled(if: !mayBeSkipped, "schemathesis is not in .build-venv (scripts/test installs it from Tests/Browser/requirements.txt)"))
    func bothDocumentsAgreeWithTheServer() throws {
        let folder = try TemporaryDirectory("linkhost-openapi")
        let metrics = PrometheusMetrics()
        let server = try LinkhostServer(
            configuration: try Self.configuration(in: folder), ingestKeys: try IngestKeys(["rowhni": Self.ingestKey]), metricsFactory: metrics.factory)
        try server.start()
        defer { server.stop() }
        let admin = try AdminServer(server: server, token: try requireToken(AdminHarness.token), metrics: metrics)
        try admin.start()
        defer { admin.stop() }
        // A few rows, so the hits are read and paged (a small limit gets a Link header).
        for target in ["/addfriend?code=ABC123&utm_source=a", "/joingroup?code=XY12", "/nothing", "/addfriend"] {
            _ = try RawHTTPClient(port: server.port).request("GET", target, host: "rowhni.com", headers: [("Connection", "close")])
        }
        // The report API's document is served on every host, from the public folder's static files.
        let served = try RawHTTPClient(port: server.port).request("GET", "/static/openapi-ingest.json", host: "rowhni.com", headers: [("Connection", "close")])
        #expect(served.status == 200)
        #expect(served.header("Content-Type") == "application/json")
        #expect(served.body == Array(try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.root + "/Public/static/openapi-ingest.json"))))
        #expect(waitUntil { (server.logStatus?.written ?? 0) >= 4 }, "the log has its rows")

        // Both documents at once: each run is one busy Python process.
        let started = Date()
        let adminProcess = try Self.start(
            "Public/admin/openapi.json", port: admin.port, headers: ["Authorization: Bearer \(AdminHarness.token)"], config: "admin.toml", in: folder)
        let ingestProcess = try Self.start(
            "Public/static/openapi-ingest.json", port: server.port, headers: ["Host: rowhni.com", "Authorization: Bearer \(Self.ingestKey)"],
            config: "ingest.toml", in: folder)
        let adminRun = Self.finish(adminProcess, "the admin API's document", started: started)
        let ingestRun = Self.finish(ingestProcess, "the report API's document", started: started)
        #expect(adminRun.status == 0, "\(adminRun.output)")
        #expect(ingestRun.status == 0, "\(ingestRun.output)")
        for run in [adminRun, ingestRun] {
            #expect(run.output.contains("API Operations:"), "schemathesis printed no summary:\n\(run.output)")
        }
    }
}
