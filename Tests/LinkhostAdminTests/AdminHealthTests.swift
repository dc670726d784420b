import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// The health report in full on the admin listener's `/healthz`, behind the token; the public
/// `/healthz` says only the status. Asked in-process (`AdminServer.answer`, `LinkhostServer.answer`).
@Suite("Admin listener: the health report", .ownThread)
struct AdminHealthTests {
    @Test func aRefusedReloadsProblemIsInTheAdminReportAndNotInThePublicOne() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        // A config the reload refuses, with a problem at a JSON path.
        var document = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.shippedConfig))))
        document = document.setting("server.publicDirectory", to: .string(ProjectPaths.root + "/Public")).setting("server.limits.threads", to: -3)
        let broken = try harness.folder.write("refused-config.json", String(decoding: document.serialized(), as: UTF8.self))
        #expect(!harness.server.reload(from: ConfigurationSource(path: broken)).succeeded)

        let answer = try harness.admin("/healthz")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.header("Cache-Control") == "no-store")
        let report = try JSONParser().parse(answer.body)
        #expect(report["status"] == "degraded")
        #expect(report["reload"]?["last"]?["source"] == .string(broken))
        let problem = try #require(report["reload"]?["last"]?["problems"]?.arrayElements?.first)
        #expect(problem["path"] == "server.limits.threads")
        let problemText = try #require(problem["problem"]?.stringValue)
        #expect(report["log"]?["database"] == .string(harness.databasePath))
        #expect(report["log"]?["journal"]?["path"]?.stringValue?.hasPrefix(harness.folder.path) == true)
        // The same document the server hands in-process callers.
        #expect(report.objectMembers?.map(\.key) == harness.server.healthDetails.objectMembers?.map(\.key))
        #expect(report["reload"] == harness.server.healthDetails["reload"])

        // The public side, on any host: the status alone.
        for host in ["rowhni.com", "anything.example", "127.0.0.1"] {
            let published = try harness.publicRequest("/healthz", host: host)
            #expect(published.status == 200)
            #expect(published.header("Cache-Control") == "no-store")
            #expect(try JSONParser().parse(published.body) == .object([JSONMember("status", "degraded")]), "\(published.text)")
            for detail in [broken, harness.folder.path, problemText, "server.limits.threads", "journal", "sqlite"] {
                #expect(!published.text.contains(detail), "the public /healthz shows \(detail)")
            }
        }
        // Without the token, the admin one says nothing either.
        let refused = try harness.adminRequest("/healthz")
        #expect(refused.status == 401)
        #expect(!refused.text.contains(harness.folder.path) && !refused.text.contains(problemText))
    }
}
