import Foundation
import LinkLog
import LinkLogSQLite
import OrderedJSON
import TestSupport
import Testing

/// `linkhost backup` through the built binary: against a running server under load, a restore the
/// way docs/operations.md says, and the command's refusals.
@Suite("linkhost backup", .ownThread, .serialized)
struct BackupCommandTests {
    static let ingestKey = "backup-test-ingest-key-0123456789"

    /// A config in `folder` whose log is `<folder>/<name>/log.sqlite`.
    static func config(in folder: TemporaryDirectory, log name: String) throws -> String {
        var config = try EditableConfig(in: folder, name: "\(name).json")
        config.set("log.database", to: .string(folder.path + "/\(name)/log.sqlite"))
        return try config.write()
    }

    /// `serve` on a free loopback port with app opens on; returns the process and its port.
    static func serve(_ config: String) throws -> (ChildProcess, Int) {
        var environment = ProcessInfo.processInfo.environment
        environment["LINKHOST_INGEST_KEY"] = ingestKey
        let child = try ChildProcess(
            ProjectPaths.linkhostBinary, ["serve", "--config", config, "--host", "127.0.0.1", "--port", "0"], environment: environment)
        guard child.waitForOutput(containing: "listening on http://") else {
            Issue.record("serve did not start: \(child.standardError)")
            throw CancellationError()
        }
        let line = child.standardOutput.split(separator: "\n").first { $0.contains("listening on http://") } ?? ""
        return (child, Int(line.split(separator: ":").last ?? "") ?? 0)
    }

    static func linkhost(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try ChildProcess.run(ProjectPaths.linkhostBinary, arguments)
    }

    @Test("a backup made while the server answers under load opens whole, and the log restored from it pairs an open by invite code")
    func backupUnderLoadThenRestore() throws {
        let folder = try TemporaryDirectory()
        let live = try Self.config(in: folder, log: "live")
        let (server, port) = try Self.serve(live)
        defer { server.send(signal: SIGKILL) }
        #expect(try RawHTTPClient(port: port).request("GET", "/addfriend?code=INVITE42", host: "rowhni.com").status == 200)
        let stop = StopFlag()
        let load = Thread {
            guard let client = try? RawHTTPClient(port: port) else { return }
            var index = 0
            while !stop.isSet, (try? client.request("GET", "/addfriend?code=LOAD\(index % 100)", host: "rowhni.com")) != nil { index += 1 }
        }
        load.start()
        // Rows are being written when the backup starts.
        let rowsNow = { (try? LogReader(databasePath: folder.path + "/live/log.sqlite").count()) ?? 0 }
        #expect(waitUntil { rowsNow() >= 200 })
        let backup = try Self.linkhost(["backup", "--config", live, "--to", folder.path + "/backup", "--json"])
        let rowsThen = rowsNow()
        #expect(FileManager.default.fileExists(atPath: folder.path + "/live/log.sqlite-wal"), "the backup's close deleted the server's WAL")
        stop.set()
        #expect(waitUntil { load.isFinished })
        server.send(signal: SIGTERM)
        #expect(server.waitForExit(timeoutSeconds: 30) == 0)

        #expect(backup.status == 0, "\(backup.error)")
        let report = try JSONParser().parse(backup.output)
        let database = folder.path + "/backup/log.sqlite"
        #expect(report["database"]?["path"] == .string(database))
        #expect(report["key"]?["path"] == .string(database + ".key"))
        let rows = try #require(report["rows"]?.numberValue?.intValue)
        #expect(rows >= 200 && rows <= rowsThen, "\(rows) rows; \(rowsThen) in the live log after")
        #expect(report["walHeldSeconds"]?.numberValue != nil)
        #expect(try SQLiteConnection(path: database, flags: [.readOnly]).queryText("PRAGMA integrity_check") == "ok")
        let stats = try Self.linkhost(["stats", "--by", "day", "--format", "json", "--db", database])
        #expect(try JSONParser().parse(stats.output).arrayElements?.first?["hits"]?.numberValue?.intValue == rows, "\(stats.output)")
        var info = stat()
        #expect(stat(database + ".key", &info) == 0 && info.st_mode & 0o777 == 0o600)

        // Restored as docs/operations.md says: both files beside the config's log.database.
        let restored = try Self.config(in: folder, log: "restored")
        try FileManager.default.createDirectory(atPath: folder.path + "/restored", withIntermediateDirectories: false)
        for file in ["log.sqlite", "log.sqlite.key"] {
            try FileManager.default.copyItem(atPath: folder.path + "/backup/" + file, toPath: folder.path + "/restored/" + file)
        }
        let (again, againPort) = try Self.serve(restored)
        defer { again.send(signal: SIGKILL) }
        let body = Array(#"{"url": "https://rowhni.com/addfriend?code=INVITE42", "source": "universal-link"}"#.utf8)
        let opened = try RawHTTPClient(port: againPort).request(
            "POST", "/v1/opens", host: "rowhni.com", headers: [("Authorization", "Bearer \(Self.ingestKey)"), ("Content-Type", "application/json")], body: body)
        #expect(opened.status == 200)
        again.send(signal: SIGTERM)
        #expect(again.waitForExit(timeoutSeconds: 30) == 0)
        #expect(again.standardError.contains("the hit log was restored from a backup"), "\(again.standardError)")
        let funnel = try Self.linkhost(["stats", "--funnel", "--format", "json", "--db", folder.path + "/restored/log.sqlite"])
        let total = try JSONParser().parse(funnel.output).arrayElements?.first
        #expect(total?["app_opens"] == 1 && total?["opens_after_view"] == 1, "\(funnel.output)")
    }

    @Test("without --to, into a folder that cannot be written, or over a backup: refused, naming --to")
    func refusals() throws {
        let folder = try TemporaryDirectory()
        let database = try LogCommandTests.makeDatabase(in: folder)
        let missing = try Self.linkhost(["backup", "--db", database])
        #expect(missing.status == 64)
        #expect(missing.error.contains("--to"), "\(missing.error)")

        let blocker = try folder.write("blocker", "a file where a folder should be")
        let unwritable = try Self.linkhost(["backup", "--db", database, "--to", blocker + "/backup"])
        #expect(unwritable.status == 2)
        #expect(unwritable.error.contains("--to \(blocker)/backup: cannot create the folder \(blocker)"), "\(unwritable.error)")

        #expect(try Self.linkhost(["backup", "--db", database, "--to", folder.path + "/backup"]).status == 0)
        let again = try Self.linkhost(["backup", "--db", database, "--to", folder.path + "/backup"])
        #expect(again.status == 2)
        #expect(again.error.contains("\(folder.path)/backup/log.sqlite is there already"), "\(again.error)")
    }

    @Test("a PostgreSQL log is not copied: the message gives the pg_dump command and the key to copy, without the password")
    func postgreSQLGetsTheCommands() throws {
        let folder = try TemporaryDirectory()
        var config = try EditableConfig(in: folder)
        config.set("log.database", to: "postgresql://linkhost:SECRETPASSWORD@db.internal:5432/linkhost")
        config.set("log.secretKeyFile", to: .string(folder.path + "/linkhost.key"))
        let result = try Self.linkhost(["backup", "--config", try config.write(), "--to", folder.path + "/backup"])
        #expect(result.status == 2)
        #expect(
            result.error.contains("pg_dump --format=custom --file \(folder.path)/backup/linkhost.dump 'postgresql://linkhost@db.internal:5432/linkhost'"),
            "\(result.error)")
        #expect(result.error.contains("install -m 600 \(folder.path)/linkhost.key \(folder.path)/backup/linkhost.key"), "\(result.error)")
        #expect(!result.error.contains("SECRETPASSWORD"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/backup"))
    }
}
