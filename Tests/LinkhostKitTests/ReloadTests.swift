import Foundation
import LinkLog
import LinkLogSQLite
import LinkhostKit
import OrderedJSON
import Synchronization
import TestSupport
import Testing

/// Reloading a running server in process: a new config is checked like a start-up one and
/// replaces the served set in one step, or is refused while the old one keeps serving. Requests
/// are answered in-process, but for the first test's keep-alive connection, which a reload must
/// not drop.
@Suite("Reload", .ownThread, .serialized)
struct ReloadTests {
    static let aasaPath = "/.well-known/apple-app-site-association"
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    /// The flags a test server runs with, the same on every reload (as `serve` keeps its own).
    func overrides(logDatabase: String? = nil) -> ConfigurationOverrides {
        var overrides = ConfigurationOverrides()
        overrides.listenAddress = .init("127.0.0.1", from: "the test")
        overrides.port = .init(0, from: "the test")
        overrides.databasePath = logDatabase.map { .init($0, from: "the test") }
        return overrides
    }

    /// The shipped config (two worker threads, the log on only with a database), optionally edited.
    func editable(logDatabase: String? = nil, _ edit: (inout EditableConfig) -> Void = { _ in }) throws -> EditableConfig {
        var config = try EditableConfig(in: folder)
        config.set("server.limits.threads", to: 2)
        config.set("log.enabled", to: .bool(logDatabase != nil))
        edit(&config)
        return config
    }

    func load(_ config: EditableConfig, logDatabase: String? = nil) throws -> LinkhostConfiguration {
        try ConfigurationLoader.parse(
            config.document.serialized(), source: "config.json", baseDirectory: folder.path, overrides: overrides(logDatabase: logDatabase))
    }

    /// The detailed health report, as the admin listener's `/healthz` shows it.
    func health(_ server: LinkhostServer) throws -> JSONValue {
        server.healthDetails
    }

    /// Before it swaps a config in, a reload answers the links logged in the last days under the
    /// old and the new AASA files: it says which rules' links would stop opening the app (in its
    /// outcome and the health report), and refuses the config for them when told to.
    @Test func aReloadChecksTheNewFilesAgainstTheLoggedLinks() throws {
        let database = folder.path + "/log.sqlite"
        let server = try LinkhostServer(configuration: try load(try editable(logDatabase: database), logDatabase: database))
        defer { server.stop() }
        for target in ["/showthread.php?threadid=456", "/showthread.php?threadid=457", "/showthread.php?threadid=456&pagenumber=2"] {
            #expect(try server.inProcess.request("GET", target, host: "forums.somethingawful.com").status == 200)
        }
        #expect(server.drainLog())
        // The same config: nothing changes.
        let same = server.reload(try load(try editable(logDatabase: database), logDatabase: database))
        #expect(same.succeeded)
        #expect(same.linksCheck?.result?.links == 3)
        #expect(same.linksCheck?.stopsAny == false)
        // Without the forum's plain thread rule, the two thread links would open the browser.
        func withoutThreads(refuse: Bool) throws -> LinkhostConfiguration {
            try load(
                try editable(logDatabase: database) { config in
                    config.set("server.reload.refuseIfLinksStopOpening", to: .bool(refuse))
                    config.editSite(1) { members in
                        guard let position = members.firstIndex(where: { $0.key == "links" }), case .array(let rules) = members[position].value else { return }
                        members[position].value = .array(rules.filter { $0["name"]?.stringValue != "thread" })
                    }
                }, logDatabase: database)
        }
        let narrowed = server.reload(try withoutThreads(refuse: false))
        #expect(narrowed.succeeded, "the check reports; only the setting refuses")
        #expect(narrowed.linksCheck?.result?.stopping.map(\.rule) == ["thread"])
        #expect(narrowed.linksCheck?.summary.contains("2 would stop opening the app (awful thread (2))") == true, "\(narrowed.linksCheck?.summary ?? "")")
        let reported = try health(server)["reload"]?["last"]?["linksCheck"]
        #expect(reported?["stopping"]?.arrayElements?.first?["rule"] == "thread")
        #expect(reported?["links"] == 3)
        // Back to the full config, now with the refusal on: the narrowed config is refused and the
        // thread pages keep their rule.
        #expect(
            server.reload(
                try load(try editable(logDatabase: database) { $0.set("server.reload.refuseIfLinksStopOpening", to: .bool(true)) }, logDatabase: database)
            ).succeeded)
        let refused = server.reload(try withoutThreads(refuse: true))
        #expect(!refused.succeeded)
        #expect(refused.failure?.message.contains("refuseIfLinksStopOpening") == true, "\(refused.failure?.message ?? "")")
        #expect(refused.failure?.problems.first?.code == "LH010")
        #expect(try health(server)["reload"]?["last"]?["result"] == "failed")
        let page = try server.inProcess.request("GET", "/showthread.php?threadid=999", host: "forums.somethingawful.com")
        #expect(page.status == 200 && page.text.contains("data-rule=\"thread\""))
    }

    @Test func badReloadSettingsAreExplainedWithTheirPath() throws {
        let config = try editable { config in
            config.set("server.reload", to: .object([JSONMember("checkAgainstLogDays", "7d"), JSONMember("refuseIfLinksStopOpenning", .bool(true))]))
        }
        let error = #expect(throws: ConfigurationError.self) { try load(config) }
        let problems = error?.problems.map { "\($0.path) \($0.problem) \($0.fix)" } ?? []
        #expect(problems.contains { $0.hasPrefix("server.reload.checkAgainstLogDays") && $0.contains("0 to 365") }, "\(problems)")
        #expect(problems.contains { $0.contains("refuseIfLinksStopOpenning") && $0.contains("refuseIfLinksStopOpening") }, "\(problems)")
    }

    @Test func aNewRuleChangesTheAASAFileThePagesAndTheETagAtOnce() throws {
        let server = try startedServer(try load(try editable()))
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let before = try client.request("GET", Self.aasaPath, host: "rowhni.com")
        let forumsBefore = try client.request("GET", Self.aasaPath, host: "forums.somethingawful.com")
        #expect(!before.text.contains("/joinevent"))
        #expect(try client.request("GET", "/joinevent?code=TEST123", host: "rowhni.com").status == 404)

        let outcome = server.reload(try load(try editable { $0.addRule(EditableConfig.joinEventRule()) }))
        #expect(outcome.succeeded)
        #expect(outcome.changedAASA == ["rowhni"])
        #expect(outcome.generation == 2)
        #expect(outcome.needsRestart.isEmpty)

        // The same keep-alive connection: nothing was dropped, and it sees the new set.
        let after = try client.request("GET", Self.aasaPath, host: "rowhni.com")
        #expect(after.status == 200)
        #expect(after.text.contains("\"/\": \"/joinevent\""))
        let oldTag = try #require(before.header("ETag"))
        let newTag = try #require(after.header("ETag"))
        #expect(oldTag != newTag, "the bytes changed, so the tag does")
        #expect(try client.request("GET", Self.aasaPath, host: "rowhni.com", headers: [("If-None-Match", oldTag)]).status == 200)
        #expect(try client.request("GET", Self.aasaPath, host: "rowhni.com", headers: [("If-None-Match", newTag)]).status == 304)
        let page = try client.request("GET", "/joinevent?code=TEST123", host: "rowhni.com")
        #expect(page.status == 200)
        #expect(page.text.contains("rowhni://joinevent?code=TEST123"))
        let forumsAfter = try client.request("GET", Self.aasaPath, host: "forums.somethingawful.com")
        #expect(forumsAfter.header("ETag") == forumsBefore.header("ETag"), "the forums' bytes did not change, so neither does their tag")
        #expect(forumsAfter.body == forumsBefore.body)

        let reload = try #require(try health(server)["reload"])
        #expect(reload["generation"] == 2)
        #expect(reload["applied"] == 1)
        #expect(reload["last"]?["result"] == "ok")
        #expect(reload["last"]?["changedAASA"] == ["rowhni"])
        #expect(try health(server)["sites"]?.arrayElements?.first?["aasaETag"] == .string(newTag))
    }

    @Test func reloadingAnUnchangedConfigKeepsEveryETag() throws {
        let config = try editable()
        let server = try LinkhostServer(configuration: try load(config))
        let client = server.inProcess
        let tags = try ["rowhni.com", "forums.somethingawful.com"].map { try client.request("GET", Self.aasaPath, host: $0).header("ETag") }
        let outcome = server.reload(try load(config))
        #expect(outcome.succeeded)
        #expect(outcome.changedAASA.isEmpty)
        for (host, tag) in zip(["rowhni.com", "forums.somethingawful.com"], tags) {
            let again = try client.request("GET", Self.aasaPath, host: host, headers: [("If-None-Match", tag ?? "")])
            #expect(again.status == 304, "a client holding the tag keeps its copy across a reload that changed nothing")
        }
    }

    @Test func aBrokenConfigIsRefusedWithItsJSONPathsAndTheOldOneKeepsServing() throws {
        var config = try editable()
        try config.write()
        let source = ConfigurationSource(path: config.file, overrides: overrides())
        let server = try LinkhostServer(configuration: try source.configuration())
        let served = try server.inProcess.request("GET", Self.aasaPath, host: "rowhni.com")

        var broken = config
        broken.addRule(EditableConfig.joinEventRule())
        broken.editSite(0) { members in
            if let links = members.firstIndex(where: { $0.key == "links" }), case .array(var rules) = members[links].value {
                rules[2] = rules[2].setting("path", to: "joinevent")
                members[links].value = .array(rules)
            }
        }
        try broken.write()
        let refused = server.reload(from: source)
        #expect(!refused.succeeded)
        #expect(refused.generation == 1)
        #expect(refused.failure?.problems.map(\.path.description) == ["sites[0].links[2].path"])
        #expect(refused.failure?.message.contains("a path must start with '/'") == true)

        let client = server.inProcess
        let still = try client.request("GET", Self.aasaPath, host: "rowhni.com")
        #expect(still.body == served.body)
        #expect(still.header("ETag") == served.header("ETag"))
        #expect(try client.request("GET", "/addfriend?code=TEST123", host: "rowhni.com").status == 200)
        let report = try health(server)
        #expect(report["status"] == "degraded", "the server does not serve the config on disk")
        #expect(report["reload"]?["refused"] == 1)
        #expect(report["reload"]?["last"]?["result"] == "failed")
        #expect(report["reload"]?["last"]?["problems"]?.arrayElements?.first?["path"] == "sites[0].links[2].path")
        #expect(report["reload"]?["last"]?["at"]?.stringValue?.hasSuffix("Z") == true)

        // A file that is not even JSON says where the syntax breaks.
        try config.write(text: "{\"server\": {,}")
        let syntax = server.reload(from: source)
        #expect(syntax.failure?.message.contains("not valid JSON (line 1, column 13)") == true, "\(syntax.failure?.message ?? "")")

        // Fixed: the next reload applies, and health is ok again.
        config.addRule(EditableConfig.joinEventRule())
        try config.write()
        #expect(server.reload(from: source).succeeded)
        #expect(try health(server)["status"] == "ok")
        #expect(try client.request("GET", "/joinevent?code=TEST123", host: "rowhni.com").status == 200)
    }

    @Test func settingsOnlyARestartAppliesAreNamedAndKeptWhileTheRestChanges() throws {
        let server = try LinkhostServer(configuration: try load(try editable()))
        var changed = try editable {
            $0.set("server.limits.connections", to: 100)
            $0.set("log.retentionDays", to: 7)
            $0.set("log.database", to: "postgresql://linkhost:hunter2secret@db.example/linkhost")
            $0.set("server.pidFile", to: "linkhost.pid")
            $0.set("server.aasaCacheControl", to: "public, max-age=60")
        }
        changed.set("server.listen.port", to: 9)
        var flags = ConfigurationOverrides()
        flags.listenAddress = .init("127.0.0.1", from: "the test")
        let requested = try ConfigurationLoader.parse(changed.document.serialized(), source: "config.json", baseDirectory: folder.path, overrides: flags)
        let outcome = server.reload(requested)
        #expect(outcome.succeeded)
        #expect(
            outcome.needsRestart.map(\.path) == [
                "server.listen.port", "server.limits.connections", "server.pidFile", "log.database", "log.retentionDays",
            ])
        #expect(outcome.needsRestart.first?.description == "server.listen.port changed from 0 to 9")
        #expect(outcome.needsRestart.map(\.description).contains("log.database changed"), "a database URL is never shown")
        #expect(!outcome.needsRestart.map(\.description).joined().contains("hunter2"))
        // The running values stay; the live ones apply.
        #expect(server.configuration.server.connectionLimit == 2048)
        #expect(server.configuration.log.retentionDays == 90)
        #expect(server.configuration.server.pidFile == nil)
        let aasa = try server.inProcess.request("GET", Self.aasaPath, host: "rowhni.com")
        #expect(aasa.header("Cache-Control") == "public, max-age=60")
        #expect(try health(server)["reload"]?["last"]?["needsRestart"]?.arrayElements?.count == 5)
    }

    @Test func aTemplateThatNoLongerParsesIsRefusedNamingThePublicFolder() throws {
        let copy = folder.path + "/Public"
        try FileManager.default.copyItem(atPath: ProjectPaths.root + "/Public", toPath: copy)
        let config = try editable { $0.set("server.publicDirectory", to: "Public") }
        let server = try LinkhostServer(configuration: try load(config))
        try "{{#broken}} never closed".write(toFile: copy + "/templates/page.mustache", atomically: true, encoding: .utf8)
        let outcome = server.reload(try load(config))
        #expect(!outcome.succeeded)
        #expect(outcome.failure?.problems.map(\.path.description) == ["server.publicDirectory"])
        #expect(outcome.failure?.message.contains("page.mustache") == true, "\(outcome.failure?.message ?? "")")
        #expect(try server.inProcess.request("GET", "/addfriend?code=TEST123", host: "rowhni.com").status == 200)
    }

    /// The swap is atomic: while reloads alternate two configs, every answer is one set's whole
    /// file with that file's own tag. Each reload waits until the askers have been answered again, so
    /// answers interleave with the swaps however the machine schedules the threads.
    @Test func requestsDuringReloadsGetOneSetsFileWithItsOwnTag() async throws {
        let first = try load(try editable())
        let second = try load(try editable { $0.addRule(EditableConfig.joinEventRule()) })
        let server = try LinkhostServer(configuration: first)
        let files = [first, second].map { configuration in configuration.sites[0].aasa.bytes }
        let tags = files.map(EntityTag.strong(for:))
        let stop = Atomic<Bool>(false)
        let answers = Atomic<Int>(0)
        let refusedReloads = Atomic<Int>(0)
        let wrong = Mutex<[String]>([])
        // Thread 0 reloads twenty times; the others ask for the file (on threads of their own,
        // awaited without holding a cooperative thread: see `OwnThread`).
        await OwnThread.run {
            ParallelThreads.run(4) { index in
                guard index > 0 else {
                    for round in 0..<20 {
                        let before = answers.load(ordering: .relaxed)
                        if !server.reload(round % 2 == 0 ? second : first).succeeded { refusedReloads.add(1, ordering: .relaxed) }
                        waitUntil { answers.load(ordering: .relaxed) >= before + 3 }
                    }
                    stop.store(true, ordering: .relaxed)
                    return
                }
                let client = server.inProcess
                while !stop.load(ordering: .relaxed) {
                    do {
                        let response = try client.request("GET", Self.aasaPath, host: "rowhni.com")
                        let index = files.firstIndex(of: response.body)
                        if response.status != 200 || index == nil || response.header("ETag") != index.map({ tags[$0] }) {
                            wrong.withLock { $0.append("\(response.status) \(response.header("ETag") ?? "-") \(response.body.count) bytes") }
                        }
                    } catch {
                        wrong.withLock { $0.append("\(error)") }
                    }
                    answers.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(refusedReloads.load(ordering: .relaxed) == 0)
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(5) })")
        #expect(answers.load(ordering: .relaxed) > 0)
        #expect(try health(server)["reload"]?["generation"] == 21)
    }

    /// A row is written with the rules that answered its request: after a reload makes a path
    /// parameter secret, the next row has it hashed; the row before keeps the old rules' view.
    @Test func rowsAreLoggedWithTheRulesOfTheSetThatAnswered() throws {
        let database = folder.path + "/log.sqlite"
        func rule(secret: Bool) -> JSONValue {
            var rule = EditableConfig.joinEventRule(secret: secret)
            rule = rule.setting("path", to: "/event/{code}").setting("app", to: "rowhni://event/{code}").setting("examples", to: ["/event/TEST123"])
            return rule
        }
        let open = try load(try editable(logDatabase: database) { $0.addRule(rule(secret: false)) }, logDatabase: database)
        let secret = try load(try editable(logDatabase: database) { $0.addRule(rule(secret: true)) }, logDatabase: database)
        let server = try LinkhostServer(configuration: open)
        let client = server.inProcess
        #expect(try client.request("GET", "/event/PLAIN123", host: "rowhni.com").status == 200)
        #expect(server.reload(secret).succeeded)
        #expect(try client.request("GET", "/event/HIDDEN456", host: "rowhni.com").status == 200)
        server.stop()
        let rows = try LogReader(databasePath: database).rows(LogFilter(rule: "joinevent"))
        #expect(rows.count == 2)
        #expect(rows.contains { $0.path == "/event/PLAIN123" && $0.secret == nil })
        #expect(rows.contains { $0.path.hasPrefix("/event/hmac") && $0.secret?.hasPrefix("hmac:") == true })
        #expect(try folder.filesContaining("HIDDEN456") == [])
    }

    @Test func aStoppingServerRefusesToReload() throws {
        let config = try load(try editable())
        let server = try LinkhostServer(configuration: config)
        server.stop()
        let outcome = server.reload(config)
        #expect(outcome.failure?.message == "the server is stopping")
    }
}
