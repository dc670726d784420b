import Foundation
import LinkLog
import LinkLogPostgreSQL
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// The server and the CLI with the hit log in a real PostgreSQL server (`TemporaryPostgreSQL`).
@Suite("The hit log in PostgreSQL", .serialized, .enabled(if: !TemporaryPostgreSQL.mayBeSkipped, "PostgreSQL is not installed (apt-get install postgresql)"))
struct PostgreSQLHitLogTests {
    @Test func aServerLogsIntoPostgreSQLAndTheCLIReadsItWithoutShowingThePassword() throws {
        let postgres = try TemporaryPostgreSQL()
        let folder = try TemporaryDirectory()
        let configuration = try shippedConfiguration(logDatabase: postgres.url, settings: ["log.secretKeyFile": .string(folder.path + "/log.key")])
        // A URL is taken as it is, not as a path in the config's folder.
        #expect(configuration.log.databasePath == postgres.url)
        let server = try startedServer(configuration)
        let client = try RawHTTPClient(port: server.port)
        for index in 0..<20 {
            _ = try client.request("GET", "/addfriend?code=CODE\(index)&utm_campaign=fleet", host: "rowhni.com")
        }
        let health = try client.request("GET", "/healthz", host: "rowhni.com")
        #expect(!health.text.contains(postgres.password))
        #expect(health.text.contains("postgresql://linkhost@127.0.0.1:\(postgres.port)/postgres"), "\(health.text)")
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
}
