import Foundation
import LinkLog
import LinkLogPostgreSQL
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// The server and the CLI with the hit log in a real PostgreSQL server (`TemporaryPostgreSQL`).
/// Requests are answered in-process (the serving path but the socket): what is tested is the log
/// on PostgreSQL, and 100,000 answers then take seconds of processor time instead of a minute.
@Suite(
    "The hit log in PostgreSQL", .ownThread, .serialized,
    .enabled(if: !TemporaryPostgreSQL.mayBeSkipped, "PostgreSQL is not installed (apt-get install postgresql)"))
struct PostgreSQLHitLogTests {
    @Test func aServerLogsIntoPostgreSQLAndTheCLIReadsItWithoutShowingThePassword() throws {
        let postgres = try TemporaryPostgreSQL()
        let folder = try TemporaryDirectory()
        let configuration = try shippedConfiguration(
            logDatabase: postgres.url,
            settings: ["log.secretKeyFile": .string(folder.path + "/log.key"), "log.spoolFile": .string(folder.path + "/spool.sqlite")])
        // A URL is taken as it is, not as a path in the config's folder.
        #expect(configuration.log.databasePath == postgres.url)
        let server = try LinkhostServer(configuration: configuration)
        let client = server.inProcess
        for index in 0..<20 {
            _ = try client.request("GET", "/addfriend?code=CODE\(index)&utm_campaign=fleet", host: "rowhni.com")
        }
        // The public /healthz (a row of its own) names no database; the report in full names it
        // without its password.
        let published = try client.request("GET", "/healthz", host: "rowhni.com")
        #expect(!published.text.contains("postgresql://"), "\(published.text)")
        let health = String(decoding: server.healthDetails.serialized(), as: UTF8.self)
        #expect(!health.contains(postgres.password))
        #expect(health.contains("postgresql://linkhost@127.0.0.1:\(postgres.port)/postgres"), "\(health)")
        let status = try #require(server.stop())
        #expect(status.written == 21 && status.isHealthy, "\(status)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/log.key"))

        let stats = try ChildProcess.run(ProjectPaths.linkhostBinary, ["stats", "--by", "kind", "--format", "json", "--db", postgres.url])
        #expect(stats.status == 0, "\(stats.error)")
        #expect(
            try JSONParser().parse(stats.output)
                == .array([
                    .object([JSONMember("kind", "fallback"), JSONMember("hits", 20)]), .object([JSONMember("kind", "health"), JSONMember("hits", 1)]),
                ]))
        let rollup = try ChildProcess.run(ProjectPaths.linkhostBinary, ["rollup", "--db", postgres.url])
        #expect(rollup.status == 0, "\(rollup.error)")
        #expect(rollup.output.contains("postgresql://linkhost@127.0.0.1:\(postgres.port)/postgres rebuilt from 21 hits"), "\(rollup.output)")
        #expect(!rollup.output.contains(postgres.password))

        let wrong = try ChildProcess.run(ProjectPaths.linkhostBinary, ["log", "--db", postgres.url.replacingOccurrences(of: postgres.password, with: "wrong")])
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("password authentication failed"), "\(wrong.error)")
    }

    /// 40,000 answers from two servers, the database restarted at 30 % and 65 % of them: enough
    /// rows in flight at each restart to go through both writers' spools and replays. (It was
    /// 100,000 over sockets; answered in-process, the test is about the writers, and 40,000 take a
    /// fraction of the processor time, most of it PostgreSQL's own.)
    @Test func twoInstancesWriteEveryResponseIntoOneDatabaseWhileItRestartsTwice() throws {
        let postgres = try TemporaryPostgreSQL()
        let folder = try TemporaryDirectory()
        // Two instances: one database and one hash key, each its own journal.
        let servers = try (0..<2).map { index in
            try LinkhostServer(
                configuration: try shippedConfiguration(
                    logDatabase: postgres.url,
                    settings: ["log.secretKeyFile": .string(folder.path + "/log.key"), "log.journal.path": .string(folder.path + "/journal-\(index)")]))
        }
        let received = SharedCounter()
        let perClient = 10_000
        let restarts = SharedCounter()
        ParallelThreads.run(5) { thread in
            guard thread < 4 else {
                // Restarts the database twice while the clients run: after about 30 % and 65 % of the requests.
                for threshold in [4 * perClient * 30 / 100, 4 * perClient * 65 / 100] {
                    waitUntil { received.value >= threshold }
                    if (try? postgres.restart()) != nil { _ = restarts.increment() }
                }
                return
            }
            let client = servers[thread % 2].inProcess
            for request in 0..<perClient {
                let target = request % 3 == 0 ? "/.well-known/apple-app-site-association" : "/addfriend?code=C\(thread)x\(request)&utm_campaign=fleet"
                let host = request % 3 == 0 ? "forums.somethingawful.com" : "rowhni.com"
                if let response = try? client.request("GET", target, host: host), response.status == 200 { _ = received.increment() }
            }
        }
        #expect(restarts.value == 2)
        #expect(received.value == 4 * perClient)
        // Both writers catch up (their spools replayed) before they are stopped.
        for server in servers {
            let caughtUp = waitUntil(timeoutSeconds: 120) { server.logStatus.map { $0.isHealthy && $0.pending == 0 } ?? false }
            #expect(caughtUp, "\(String(describing: server.logStatus))")
        }
        let written = servers.compactMap { $0.stop() }
        #expect(written.map(\.dropped) == [0, 0] && written.map(\.abandonedAtStop) == [0, 0], "\(written)")

        let stats = try ChildProcess.run(ProjectPaths.linkhostBinary, ["stats", "--by", "kind", "--format", "json", "--db", postgres.url])
        #expect(stats.status == 0, "\(stats.error)")
        let total = try JSONParser().parse(stats.output).arrayElements?.compactMap { $0["hits"]?.numberValue?.intValue }.reduce(0, +)
        #expect(total == received.value, "\(stats.output)")
    }
}
