import Foundation
import OrderedJSON
import TestSupport
import Testing

/// The server's WAL while other processes read the log. The writer syncs its WAL before it hands
/// journal space back; syncing through a descriptor of its own, closed after, dropped the server's
/// POSIX locks on the database, and the next command to close its connection took the database for
/// unused and deleted the WAL the server was writing into.
@Suite("The writer's WAL and readers in other processes", .ownThread, .serialized)
struct WriterWALTests {
    @Test("linkhost stats reading the log while the server writes leaves the server's WAL in place, after the writer synced it")
    func readersLeaveTheWriterWAL() throws {
        let folder = try TemporaryDirectory()
        let (server, port) = try CommandLineTests.serve(logFolder: folder, AdminHealth.serveArguments, environment: AdminHealth.environment)
        defer { server.send(signal: SIGKILL) }
        let admin = try AdminHealth(of: server)
        let client = try RawHTTPClient(port: port)
        for index in 0..<20 { #expect(try client.request("GET", "/addfriend?code=SYNC\(index)", host: "rowhni.com").status == 200) }
        // Journal space handed back: the writer has synced the WAL since those rows. It hands space
        // back after a write, once a sync interval has passed since the last time; the report is
        // read on the admin listener, which logs nothing, so each miss sends one more public
        // request (a row) to make the writer write again.
        #expect(
            waitUntil {
                let state = try? admin.details()
                if state?["log"]?["pending"] == 0 && state?["log"]?["journal"]?["usedBytes"] == 0 { return true }
                _ = try? client.request("GET", "/healthz", host: "rowhni.com")
                return false
            })
        let wal = folder.path + "/log.sqlite-wal"
        #expect(FileManager.default.fileExists(atPath: wal))
        #expect(try ChildProcess.run(ProjectPaths.linkhostBinary, ["stats", "--db", folder.path + "/log.sqlite"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: wal), "a reader's close deleted the server's WAL")
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.processIdentifier)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.processIdentifier)/fd/\($0)")
        }
        #expect(!descriptors.contains { $0.hasSuffix("(deleted)") && $0.contains("log.sqlite") }, "\(descriptors)")
        server.send(signal: SIGTERM)
        #expect(server.waitForExit(timeoutSeconds: 30) == 0)
    }
}
