import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// A running server's reload answers the logged links from its link window's forms once the window
/// has caught up, the same as from the log's rows; a file that tells digit runs apart sends the
/// check back to the rows, which are then the only right answer.
@Suite("Reload through the link window", .ownThread, .serialized)
struct ReloadLinkWindowTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    func configuration(_ database: String, _ edit: (inout EditableConfig) -> Void = { _ in }) throws -> LinkhostConfiguration {
        var config = try EditableConfig(in: folder)
        config.set("server.limits.threads", to: 2)
        config.set("log.enabled", to: .bool(true))
        edit(&config)
        var overrides = ConfigurationOverrides()
        overrides.listenAddress = .init("127.0.0.1", from: "the test")
        overrides.port = .init(0, from: "the test")
        overrides.databasePath = .init(database, from: "the test")
        do {
            return try ConfigurationLoader.parse(config.document.serialized(), source: "config.json", baseDirectory: folder.path, overrides: overrides)
        } catch {
            Issue.record("\(error)")
            throw error
        }
    }

    static func withoutRule(_ name: String) -> (inout EditableConfig) -> Void {
        { config in
            config.editSite(1) { members in
                guard let position = members.firstIndex(where: { $0.key == "links" }), case .array(let rules) = members[position].value else { return }
                members[position].value = .array(rules.filter { $0["name"]?.stringValue != name })
            }
        }
    }

    @Test func formsAnswerAsTheRowsDoAndAFileThatReadsDigitsIsAnsweredFromTheRows() throws {
        let database = folder.path + "/log.sqlite"
        let server = try LinkhostServer(configuration: try configuration(database))
        try server.start()
        defer { server.stop() }
        for id in [456, 901, 9_120, 77] {
            #expect(try server.inProcess.request("GET", "/showthread.php?threadid=\(id)", host: "forums.somethingawful.com").status == 200)
        }
        #expect(try server.inProcess.request("GET", "/showthread.php?threadid=901&pagenumber=2", host: "forums.somethingawful.com").status == 200)
        #expect(server.drainLog())
        #expect(waitUntil { server.linkWindowIsCaughtUp })

        // Without the plain thread rule: four thread links (one form) would stop opening the app.
        let narrowed = server.reload(try configuration(database, Self.withoutRule("thread")))
        #expect(narrowed.succeeded)
        let check = try #require(narrowed.linksCheck)
        #expect(check.forms == 2, "two forms: threads, and thread pages")
        #expect(check.result?.links == 5 && check.result?.hits == 5)
        #expect(check.result?.stopping.map { [$0.rule ?? "", "\($0.links)"] } == [["thread", "4"]])
        #expect(check.summary.contains("4 would stop opening the app (awful thread (4))"), "\(check.summary)")

        // An exclusion for thread ids of three digits starting with 9: forms cannot answer it (901
        // matches, 9120 and 77 do not), so the rows do.
        let excluding = server.reload(
            try configuration(database) { config in
                config.editSite(1) { members in
                    members.append(
                        JSONMember(
                            "aasa",
                            .object([
                                JSONMember(
                                    "extraComponents",
                                    .array([
                                        .object([
                                            JSONMember("/", "/showthread.php"), JSONMember("?", .object([JSONMember("threadid", "9??")])),
                                            JSONMember("exclude", .bool(true)),
                                        ])
                                    ]))
                            ])))
                }
            })
        #expect(excluding.succeeded, "\(excluding.failure.map { "\($0.message) \($0.problems)" } ?? "")")
        let rows = try #require(excluding.linksCheck)
        #expect(rows.forms == nil)
        // Back from the narrowed config the plain thread rule returns: 456, 9120 and 77 open the app
        // again, 901 stays shut by the exclusion; the page link (901) is shut by it too.
        #expect(rows.result?.starting.map { [$0.rule ?? "", "\($0.links)"] } == [["thread", "3"]], "\(rows.summary)")
        #expect(rows.result?.stopping.map { [$0.rule ?? "", "\($0.links)"] } == [["threadPage", "1"]], "\(rows.summary)")
    }
}
