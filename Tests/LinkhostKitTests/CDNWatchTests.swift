import CDNCheck
import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// `server.cdnCheck` in a running server: checked at start and after a reload that changed a file,
/// reported in the health report (the admin listener's `/healthz`) and as a value for metrics.
@Suite("The CDN check of serve", .serialized)
struct CDNWatchTests {
    /// The detailed health report, as the admin listener's `/healthz` shows it.
    func health(_ server: LinkhostServer) throws -> JSONValue {
        server.healthDetails
    }

    /// Polls the health report until `done` holds for its `cdnCheck` section (a check takes one round of
    /// requests; the time allowed is generous for a loaded machine).
    func waitForCheck(_ server: LinkhostServer, until done: (JSONValue) -> Bool) async throws -> JSONValue? {
        var found: JSONValue?
        try await waitUntil {
            guard let section = try health(server)["cdnCheck"], done(section) else { return false }
            found = section
            return true
        }
        return found
    }

    @Test func theCheckRunsAtStartAndAgainWhenAReloadChangesAFile() async throws {
        let first = try shippedConfiguration()
        let rowhni = first.sites[0].aasa.bytes
        let cdn = try FakeCDN([
            "rowhni.com": .file(rowhni, age: 60),
            "forums.somethingawful.com": .noCopy,
            "archives.somethingawful.com": FakeCDN.Answer(status: 503),
        ])
        defer { cdn.stop() }
        let check: JSONValue = .object([JSONMember("intervalHours", 24), JSONMember("cdnBase", .string(cdn.base)), JSONMember("timeoutSeconds", 5)])
        let server = try startedServer(try shippedConfiguration(settings: ["server.cdnCheck": check]))
        defer { server.stop() }

        let section = try #require(try await waitForCheck(server) { $0["last"] != .null })
        #expect(section["cdnBase"] == .string(cdn.base))
        #expect(section["intervalHours"] == 24)
        #expect(section["nextCheckAt"]?.stringValue != nil)
        let states = section["last"]?["hosts"]?.arrayElements?.map { $0["state"]?.stringValue ?? "" }
        #expect(states == ["in-sync", "missing", "unchecked"])
        #expect(section["last"]?["result"] == "unchecked")
        #expect(try health(server)["status"] == "ok", "a CDN copy that lags is not a fault of the server")
        let status = try #require(server.cdnCheckStatus)
        #expect(status.latest?.hosts.map(\.state.metricValue) == [0, 2, 3])
        #expect(status.latest?.hosts.first?.age == 60)

        // A reload that changes Rowhni's file checks again: the CDN still has the old one.
        let firstCheck = section["last"]?["checkedAt"]
        var edited = try EditableConfig(in: try TemporaryDirectory())
        edited.addRule(EditableConfig.joinEventRule())
        edited.set("server.cdnCheck", to: check)
        var overrides = ConfigurationOverrides()
        overrides.listenAddress = .init("127.0.0.1", from: "the test")
        overrides.port = .init(0, from: "the test")
        edited.set("log.enabled", to: false)
        let changed = try ConfigurationLoader.parse(edited.document.serialized(), source: "config.json", baseDirectory: ProjectPaths.root, overrides: overrides)
        #expect(server.reload(changed).changedAASA == ["rowhni"])
        let again = try #require(try await waitForCheck(server) { $0["last"] != .null && $0["last"]?["checkedAt"] != firstCheck })
        #expect(again["last"]?["hosts"]?.arrayElements?.first?["state"] == "differs")
        let kinds = again["last"]?["hosts"]?.arrayElements?.first?["differences"]?.arrayElements?.compactMap { $0["kind"]?.stringValue }
        #expect(kinds == ["rules-missing"])
        #expect(cdn.requests.filter { $0.host == "rowhni.com" }.count == 2)
    }

    @Test func healthHasNoCDNSectionWhileTheCheckIsOff() throws {
        let server = try startedServer(try shippedConfiguration())
        defer { server.stop() }
        #expect(try health(server)["cdnCheck"] == nil)
        #expect(server.cdnCheckStatus == nil)
    }
}
