import Foundation
import OrderedJSON
import TestSupport
import Testing

/// `linkhost cdn-check` against a fake CDN on a loopback port, one host per kind of answer Apple's
/// CDN gives: the same file, an older one, none (404), an error (500), a body that is no JSON, and
/// silence. The exit status tells them apart: 0 in sync, 1 differs or no copy, 2 not checked.
@Suite("cdn-check against a fake CDN", .serialized)
struct CDNCheckCommandTests {
    static let hosts = ["in-sync.example", "relaid.example", "differs.example", "missing.example", "broken.example", "notjson.example", "moved.example"]

    /// A config whose one site (Rowhni's) answers every test host, the file it serves for them, and
    /// a fake CDN answering each host its way.
    final class Fixture: Sendable {
        let folder: TemporaryDirectory
        let config: String
        let served: [UInt8]
        let cdn: FakeCDN

        init() throws {
            folder = try TemporaryDirectory()
            var edited = try EditableConfig(in: folder)
            edited.keepOnlySite(0)
            edited.editSite(0) { members in
                if let index = members.firstIndex(where: { $0.key == "hosts" }) {
                    members[index].value = .array(CDNCheckCommandTests.hosts.map { .string($0) })
                }
            }
            config = try edited.write()
            let printed = try ChildProcess.run(ProjectPaths.linkhostBinary, ["aasa", "--host", "in-sync.example", "--config", config])
            served = Array(printed.output.utf8)
            let document = try JSONParser().parse(served)
            cdn = try FakeCDN([
                "in-sync.example": .file(served, age: 1834, lastModified: "Mon, 23 Nov 2026 09:12:00 GMT"),
                "relaid.example": .file(document.serialized(.compact)),
                "differs.example": .file(Array(Self.olderFile.utf8), age: 7200),
                "missing.example": .noCopy,
                "broken.example": FakeCDN.Answer(status: 500, body: Array("upstream error".utf8)),
                "notjson.example": .file(Array("<html>Service Unavailable</html>".utf8)),
            ])
            // A redirect to a good copy: followed, it would look in sync; a device does not follow it.
            cdn.set("moved.example", FakeCDN.Answer(status: 301, headers: ["Location": cdn.base + "/a/v1/in-sync.example"]))
        }

        /// What the CDN might still hold from before the group invitations: no `/joingroup`, a beta
        /// app that has gone since, and an exclusion that was dropped.
        static let olderFile = """
            {"applinks": {"apps": [], "details": [{"appID": "TEAMID.com.yaman.rowhni", "appIDs": ["TEAMID.com.yaman.rowhni", "TEAMID.com.yaman.rowhni.beta"],
              "components": [{"comment": "Friend invitations: /addfriend?code=XXXX", "/": "/addfriend", "?": {"code": "?*"}}, {"/": "/admin/*", "exclude": true}],
              "paths": ["/addfriend", "/joingroup"]}]}}
            """

        /// A fixture, made on a thread of its own (it runs `linkhost aasa`).
        static func make() async throws -> Fixture {
            try await OwnThread.run { try Fixture() }
        }

        /// Runs `linkhost cdn-check` with the fixture's config, waiting on a thread of its own.
        func run(_ arguments: [String], base: String? = nil) async throws -> (status: Int32, output: String, error: String) {
            let command = ["cdn-check", "--config", config, "--cdn-base", base ?? cdn.base] + arguments
            return try await OwnThread.run { try ChildProcess.run(ProjectPaths.linkhostBinary, command, timeoutSeconds: 120) }
        }

        deinit { cdn.stop() }
    }

    @Test(arguments: [
        ("in-sync.example", Int32(0), "in sync — the CDN has the same bytes (Age 1834 s, Last-Modified Mon, 23 Nov 2026 09:12:00 GMT)"),
        ("relaid.example", Int32(0), "in sync — the CDN has the same JSON, laid out differently"),
        ("differs.example", Int32(1), "differs — the CDN's copy is not the file linkhost serves (Age 7200 s)"),
        ("missing.example", Int32(1), "no copy — the CDN answered 404: SWCERR00101 Bad HTTP Response: 404 Not Found"),
        ("broken.example", Int32(2), "not checked — the CDN answered 500"),
        ("notjson.example", Int32(2), "not checked — the CDN's copy is not an AASA file"),
        ("moved.example", Int32(2), "not checked — the CDN answered 301 (devices treat a redirect from the CDN as a failure)"),
    ])
    func eachAnswerHasItsStateAndExitStatus(host: String, status: Int32, headline: String) async throws {
        let fixture = try await Fixture.make()
        let result = try await fixture.run(["--host", host])
        #expect(result.status == status, "\(result.output)\(result.error)")
        #expect(result.output.hasPrefix("\(host) (site rowhni): \(headline)"), "\(result.output)")
        #expect(fixture.cdn.requests.map(\.host) == [host])
        // Asked as a device asks the CDN.
        #expect(fixture.cdn.requests.first?.proxiedDomain == host)
    }

    @Test func aDifferentCopySaysWhichAppsAndRulesDiffer() async throws {
        let fixture = try await Fixture.make()
        let result = try await fixture.run(["--host", "differs.example"])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("  applinks, app TEAMID.com.yaman.rowhni: rules served, not on the CDN:"), "\(result.output)")
        #expect(lines.contains(#"    + {"comment":"Group invitations: /joingroup?code=XXXX","/":"/joingroup","?":{"code":"?*"}}"#))
        #expect(lines.contains("  applinks, app TEAMID.com.yaman.rowhni: rules on the CDN, no longer served:"))
        #expect(lines.contains(#"    - {"/":"/admin/*","exclude":true}"#))
        #expect(lines.contains("  applinks: app TEAMID.com.yaman.rowhni.beta is on the CDN, no longer served"))
        #expect(!result.output.contains(#"+ "/joingroup""#), "the legacy paths are the same in both")
        #expect(result.output.contains("1 differs at \(fixture.cdn.base)."))
    }

    @Test func everyHostAtOnceExitsWithTheWorstStateAndJSONListsEach() async throws {
        let fixture = try await Fixture.make()
        let text = try await fixture.run([])
        #expect(text.status == 2, "a host that could not be checked outranks a difference")
        #expect(text.output.contains("2 in sync, 1 differs, 1 without a copy, 3 not checked at"), "\(text.output)")

        let json = try await fixture.run(["--json"])
        #expect(json.status == 2)
        let report = try JSONParser().parse(Array(json.output.utf8))
        #expect(report["result"] == "unchecked")
        #expect(report["cdnBase"] == .string(fixture.cdn.base))
        let states = report["hosts"]?.arrayElements?.map { [$0["host"]?.stringValue ?? "", $0["state"]?.stringValue ?? ""] }
        #expect(
            states == [
                ["in-sync.example", "in-sync"], ["relaid.example", "in-sync"], ["differs.example", "differs"], ["missing.example", "missing"],
                ["broken.example", "unchecked"], ["notjson.example", "unchecked"], ["moved.example", "unchecked"],
            ])
        let differs = report["hosts"]?.arrayElements?.first { $0["host"] == "differs.example" }
        #expect(differs?["age"] == 7200)
        let kinds = differs?["differences"]?.arrayElements?.compactMap { $0["kind"]?.stringValue }
        #expect(kinds == ["rules-missing", "rules-unexpected", "app-unexpected"])
        let missing = report["hosts"]?.arrayElements?.first { $0["host"] == "missing.example" }
        #expect(missing?["status"] == 404)
        #expect(missing?["problem"]?.stringValue?.contains("SWCERR00101") == true)

        let inSyncOnly = try await fixture.run(["--host", "in-sync.example", "--host", "relaid.example", "--json"])
        #expect(inSyncOnly.status == 0)
        #expect(try JSONParser().parse(Array(inSyncOnly.output.utf8))["result"] == "in-sync")
    }

    @Test func aCDNThatNeverAnswersIsNotCheckedOnceTheTimeoutPasses() async throws {
        let fixture = try await Fixture.make()
        let silent = try SilentPort()
        defer { silent.close() }
        let result = try await fixture.run(["--host", "in-sync.example", "--timeout", "1"], base: silent.base)
        #expect(result.status == 2)
        #expect(result.output.contains("in-sync.example (site rowhni): not checked — no answer within 1 s"), "\(result.output)")
    }

    @Test func badFlagsAndHostsAreRefusedSayingWhy() async throws {
        let fixture = try await Fixture.make()
        let scheme = try await fixture.run([], base: "ftp://cdn.example")
        #expect(scheme.status == 64)
        #expect(scheme.error.contains("--cdn-base \"ftp://cdn.example\" is not an http:// or https:// URL"), "\(scheme.error)")
        let timeout = try await fixture.run(["--timeout", "0"])
        #expect(timeout.status == 64)
        #expect(timeout.error.contains("--timeout 0 is outside 1...300"))
        let unknown = try await fixture.run(["--host", "elsewhere.example"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("no site serves elsewhere.example"), "\(unknown.error)")
        #expect(fixture.cdn.requests.isEmpty, "nothing is asked when the input is unusable")
    }
}
