import Foundation
import LinkLog
import LinkLogSQLite
import OrderedJSON
import Synchronization
import TestSupport
import Testing

/// The real binary under abuse: stalled connections, oversized heads, a flood of malformed
/// requests, SIGKILL mid-write, and requests from a load tool. Bounded in count and time, loopback
/// only. The soaks of hundreds of thousands of requests are in `SoakBench` (`bash bench/test-runs`).
@Suite("Robustness", .ownThread, .serialized)
struct RobustnessTests {
    /// A `linkhost serve` on a free loopback port with its own log database, and its admin
    /// listener on another, where its health report is read.
    final class Server: Sendable {
        let child: ChildProcess
        let port: Int
        let database: String
        let admin: AdminHealth

        init(database: String, config: String = ProjectPaths.shippedConfig, extra: [String] = []) throws {
            self.database = database
            child = try ChildProcess(
                ProjectPaths.linkhostBinary,
                ["serve", "--config", config, "--host", "127.0.0.1", "--port", "0", "--log-db", database] + AdminHealth.serveArguments + extra,
                environment: AdminHealth.environment)
            guard child.waitForOutput(containing: "listening on http://") else { throw CancellationError() }
            let line = child.standardOutput.split(separator: "\n").first { $0.contains("listening on http://") } ?? ""
            port = Int(line.split(separator: ":").last ?? "") ?? 0
            admin = try AdminHealth(of: child)
        }

        /// Resident memory in kilobytes (VmRSS), 0 if the process is gone.
        var residentKilobytes: Int {
            guard let status = try? String(contentsOfFile: "/proc/\(child.processIdentifier)/status", encoding: .utf8) else { return 0 }
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }

        /// The detailed health report (the admin listener's `/healthz`).
        func health() throws -> JSONValue { try admin.details() }

        /// Waits until the log writer has written everything queued (RSS is compared at rest).
        func waitForLogToCatchUp() throws {
            try waitUntil { try health()["log"]?["pending"] == 0 }
        }

        func stop() -> Int32? {
            child.send(signal: SIGTERM)
            return child.waitForExit(timeoutSeconds: 30)
        }
    }

    @Test func thousandStalledConnectionsDoNotStopNormalClients() throws {
        let folder = try TemporaryDirectory()
        // The stalled heads must stay held while the test counts them: past their deadline
        // (server.limits.headSeconds) they are closed, which HTTPServerTests and bench/slow-clients
        // show; on a loaded machine opening a thousand connections can take longer than the default 10 s.
        let shipped = try String(contentsOfFile: ProjectPaths.shippedConfig, encoding: .utf8)
        let config = try folder.write(
            "config.json",
            shipped.replacingOccurrences(of: "\"shutdownGraceSeconds\": 10", with: "\"shutdownGraceSeconds\": 10, \"headSeconds\": 600")
                .replacingOccurrences(of: "\"publicDirectory\": \"Public\"", with: "\"publicDirectory\": \"\(ProjectPaths.root)/Public\""))
        #expect(config.isEmpty == false && shipped.contains("\"shutdownGraceSeconds\": 10"))
        let server = try Server(database: folder.path + "/log.sqlite", config: config)
        defer { _ = server.stop() }
        // 250 stalled connections from each of four loopback addresses (under the per-address limit
        // of 256, so all 1,000 are really held), each having sent half a request head.
        var stalled: [RawHTTPClient] = []
        for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"] {
            for _ in 0..<250 {
                let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5, sourceAddress: source)
                try client.send("GET /addfriend?code=TEST123 HTTP/1.1\r\nHost: rowhni.com\r\nX-Slow: ")
                stalled.append(client)
            }
        }
        // A connection is the server's once its accept loop took it from the listen queue, a moment
        // after the client's connect returned: wait for the last ones.
        var held = 0
        #expect(
            try waitUntil {
                held = try server.health()["http"]?["openConnections"]?.numberValue?.intValue ?? 0
                return held >= 1000
            }, "the server holds \(held) connections")
        // Normal clients are all served, each well before the stalled connections time out:
        // one that had to wait for them would give up first (a loaded machine may take a moment
        // to answer, so the clients wait ten seconds, not one).
        for index in 0..<20 {
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 10)
            let response = try client.request("GET", index % 2 == 0 ? "/.well-known/apple-app-site-association" : "/joingroup?code=ABC123", host: "rowhni.com")
            #expect(response.status == 200)
        }
        #expect(stalled.count == 1000)
    }

    @Test func oversizedURLsAndHeadersGet414And431AndTheServerStaysUp() throws {
        let folder = try TemporaryDirectory()
        let server = try Server(database: folder.path + "/log.sqlite")
        defer { _ = server.stop() }
        let longURL = try RawHTTPClient(port: server.port).request("GET", "/addfriend?code=" + String(repeating: "A", count: 40_000), host: "rowhni.com")
        #expect(longURL.status == 414)
        let bigHeader = try RawHTTPClient(port: server.port).request(
            "GET", "/", host: "rowhni.com", headers: [("X-Big", String(repeating: "b", count: 40_000))])
        #expect(bigHeader.status == 431)
        let manyHeaders = try RawHTTPClient(port: server.port).request("GET", "/", host: "rowhni.com", headers: (0..<2000).map { ("X-H\($0)", "value") })
        #expect(manyHeaders.status == 431)
        #expect(try RawHTTPClient(port: server.port).request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com").status == 200)
    }

    /// A few thousand fuzzed requests through the socket: the server never crashes, answers most
    /// of them (junk may get no answer at all), still reports its health, and loses no log row.
    /// Whether memory stays flat over 200,000 is a soak, not a unit test: minutes of processor
    /// time on a 2-core machine, so it runs in `SoakBench` (`bash bench/test-runs`).
    @Test func thousandsOfMalformedRequestsNeverCrashTheServer() throws {
        let folder = try TemporaryDirectory()
        let server = try Server(database: folder.path + "/log.sqlite")
        let sent = SharedCounter()
        let answered = SharedCounter()
        Self.fuzz(port: server.port, threads: 4, perThread: 1_500, seed: 1, sent: sent, answered: answered)
        #expect(sent.value == 6_000)
        try server.waitForLogToCatchUp()
        #expect(try server.health()["status"] != nil)
        #expect(answered.value > sent.value * 3 / 4, "\(answered.value) of \(sent.value) answered")
        #expect(server.stop() == 0)
        #expect(server.child.standardOutput.contains("0 dropped, 0 not written"))
    }

    /// Sends fuzzed requests from `threads` threads. Junk that may get no answer at all waits at
    /// most a quarter second; a well-formed request waits up to five.
    static func fuzz(port: Int, threads: Int, perThread: Int, seed: UInt64, sent: SharedCounter, answered: SharedCounter) {
        ParallelThreads.run(threads) { thread in
            var fuzzer = RequestFuzzer(seed: seed &* 1_000_003 &+ UInt64(thread) &* 0x9E37_79B9)
            var client: RawHTTPClient?
            for _ in 0..<perThread {
                let request = fuzzer.next()
                _ = sent.increment()
                if request.needsFreshConnection || client == nil {
                    client = try? RawHTTPClient(port: port, timeoutSeconds: request.needsFreshConnection ? 0.05 : 5)
                }
                guard let connection = client else { continue }
                do {
                    try connection.send(request.bytes)
                    let response = try connection.readResponse(isHead: request.isHead)
                    _ = answered.increment()
                    if response.header("Connection")?.lowercased() == "close" || request.needsFreshConnection { client = nil }
                } catch {
                    client = nil
                }
            }
        }
    }

    /// SIGKILL under load: every request a client got an answer to has its row once the server is
    /// started again on the same files (the journal held it), none twice, and the database is whole.
    /// The long form (2 × 32 connections, ten kills) is `bench/kill-run`.
    @Test func sigkillUnderLoadLosesNoAnsweredRequest() throws {
        let folder = try TemporaryDirectory()
        let database = folder.path + "/log.sqlite"
        let first = try Server(database: database)
        let port = first.port
        let answered = Mutex<Set<String>>([])
        ParallelThreads.run(4) { index in
            guard var client = try? RawHTTPClient(port: port, timeoutSeconds: 2) else { return }
            for request in 0..<50_000 {
                if index == 0, request == 3000 { first.child.send(signal: SIGKILL) }
                let term = "t\(index)-\(request)"
                guard
                    let response = try? client.request(
                        "GET", "/addfriend?code=KILL\(request % 10)X&utm_source=kill&utm_term=\(term)", host: "rowhni.com"),
                    response.status == 200
                else {
                    guard let next = try? RawHTTPClient(port: port, timeoutSeconds: 2) else { return }
                    client = next
                    continue
                }
                _ = answered.withLock { $0.insert(term) }
            }
        }
        _ = first.child.waitForExit(timeoutSeconds: 10)
        // The file opens cleanly and passes SQLite's own integrity check.
        let connection = try SQLiteConnection(path: database, flags: [.readOnly])
        #expect(try connection.queryText("PRAGMA integrity_check") == "ok")
        // Restarted on the same files: the journal's records the database did not hold yet are written.
        let second = try Server(database: database)
        for _ in 0..<10 {
            #expect(try RawHTTPClient(port: second.port).request("GET", "/addfriend?code=AGAIN1&utm_source=kill", host: "rowhni.com").status == 200)
        }
        #expect(second.stop() == 0)
        let rows = try LogReader(databasePath: database).rows(LogFilter(utmSource: "kill"))
        let terms = rows.compactMap(\.utmTerm)
        let received = answered.withLock { $0 }
        #expect(received.count > 1000)
        #expect(received.subtracting(terms).isEmpty, "answered requests without a row: \(received.subtracting(terms).count) of \(received.count)")
        #expect(Set(terms).count == terms.count, "no row twice")
        #expect(rows.count == terms.count + 10)
    }

    /// The journal deleted while the server serves: the health report says a new one was made, and
    /// after a SIGKILL and a restart every answered request has its row, once — the new file held
    /// what the deleted one did.
    @Test func aJournalDeletedWhileServingIsMadeAnewAndLosesNothing() throws {
        let folder = try TemporaryDirectory()
        let database = folder.path + "/log.sqlite"
        let first = try Server(database: database)
        let client = try RawHTTPClient(port: first.port)
        var answered: Set<String> = []
        func serve(_ label: String, _ count: Int) throws {
            for index in 0..<count {
                let term = "\(label)-\(index)"
                let response = try client.request("GET", "/joingroup?code=GONE1&utm_source=gone&utm_term=\(term)", host: "rowhni.com")
                if response.status == 200 { answered.insert(term) }
            }
        }
        try serve("before", 300)
        try FileManager.default.removeItem(atPath: database + ".hits-journal")
        try serve("gone", 300)
        #expect(try waitUntil { try first.health()["log"]?["journal"]?["replacements"] == 1 })
        let journal = try first.health()["log"]?["journal"]
        #expect(journal?["fileProblem"] == .null, "\(String(describing: journal))")
        #expect(journal?["lastReplacement"]?.stringValue?.contains("deleted") == true, "\(String(describing: journal))")
        #expect(FileManager.default.fileExists(atPath: database + ".hits-journal"))
        try serve("after", 300)
        first.child.send(signal: SIGKILL)
        _ = first.child.waitForExit(timeoutSeconds: 10)
        let second = try Server(database: database)
        try second.waitForLogToCatchUp()
        #expect(second.stop() == 0)
        let terms = try LogReader(databasePath: database).rows(LogFilter(utmSource: "gone")).compactMap(\.utmTerm)
        #expect(answered.count == 900)
        #expect(answered.subtracting(terms).isEmpty, "answered without a row: \(answered.subtracting(terms).count) of \(answered.count)")
        #expect(Set(terms).count == terms.count, "no row twice")
    }

    /// The log's file system fills while the server serves: the database cannot grow, the records
    /// wait in the journal (whose room was reserved at start), and once space is back every answered
    /// request has its row. Root can mount a tmpfs, as in CI; elsewhere the test says why it skips.
    @Test func aFullDiskLosesNothingTheJournalHasRoomFor() throws {
        let folder = try TemporaryDirectory()
        let disk = folder.path + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mount = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", disk])
        guard mount.status == 0 else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "CI runs as root and can mount a tmpfs: \(mount.error)")
            print("skipped: cannot mount a tmpfs here (\(mount.error.trimmingCharacters(in: .whitespacesAndNewlines)))")
            return
        }
        defer { _ = try? ChildProcess.run("umount", [disk]) }
        // An 8 MiB journal on the 24 MiB disk (EditableConfig's size), reserved when the server starts.
        let config = try EditableConfig(in: folder)
        try config.write()
        let server = try Server(database: disk + "/log.sqlite", config: config.file)
        var client = try RawHTTPClient(port: server.port)
        func get(_ term: String) -> Bool {
            for _ in 0..<2 {
                if let response = try? client.request("GET", "/joingroup?code=FULL1&utm_source=full&utm_term=\(term)", host: "rowhni.com") {
                    return response.status == 200
                }
                guard let fresh = try? RawHTTPClient(port: server.port) else { return false }
                client = fresh
            }
            return false
        }
        var answered: Set<String> = []
        for index in 0..<50 where get("before-\(index)") { answered.insert("before-\(index)") }
        try server.waitForLogToCatchUp()
        // Everything else on the disk is taken.
        let filler = try ChildProcess.run("dd", ["if=/dev/zero", "of=\(disk)/filler", "bs=1M"], timeoutSeconds: 60)
        #expect(filler.error.contains("No space left"), "\(filler.error)")
        var sawFailing = false
        for index in 0..<6000 {
            if get("full-\(index)") { answered.insert("full-\(index)") }
            if index % 250 == 249, try server.health()["log"]?["healthy"] == false { sawFailing = true }
            if sawFailing, index > 500 { break }
        }
        #expect(sawFailing, "the database could not be written while the disk was full")
        let during = try server.health()["log"]
        #expect(during?["dropped"] == 0, "the journal had room: \(String(describing: during))")
        try FileManager.default.removeItem(atPath: disk + "/filler")
        try server.waitForLogToCatchUp()
        #expect(server.stop() == 0)
        let terms = try LogReader(databasePath: disk + "/log.sqlite").rows(LogFilter(utmSource: "full")).compactMap(\.utmTerm)
        #expect(answered.count > 550)
        #expect(answered.subtracting(terms).isEmpty, "answered without a row: \(answered.subtracting(terms).count) of \(answered.count)")
        #expect(Set(terms).count == terms.count)
    }

    /// Requests from a load tool (ApacheBench, keep-alive, 32 at once), then SIGTERM: every
    /// answer is a row, and the secret code is nowhere on disk. Issue 4's acceptance run of 100,000
    /// is in `SoakBench`; 10,000 show the same in a few seconds.
    @Test func requestsFromALoadToolAreAllInTheLog() throws {
        try Self.loadToolRun(requests: 10_000)
    }

    /// `requests` requests from ab to a fresh server, then the checks of the log.
    static func loadToolRun(requests: Int) throws {
        let folder = try TemporaryDirectory()
        let server = try Server(database: folder.path + "/log.sqlite")
        let bench = try ChildProcess.run(
            "ab",
            [
                "-q", "-n", "\(requests)", "-c", "32", "-k", "-H", "Host: rowhni.com",
                "http://127.0.0.1:\(server.port)/addfriend?code=ABSECRET1&utm_source=X&utm_campaign=load",
            ], timeoutSeconds: 600)
        #expect(bench.status == 0, "\(bench.error)")
        let complete = Int(bench.output.split(separator: "\n").first { $0.hasPrefix("Complete requests:") }?.split(separator: " ").last ?? "") ?? -1
        let failed = Int(bench.output.split(separator: "\n").first { $0.hasPrefix("Failed requests:") }?.split(separator: " ").last ?? "") ?? -1
        #expect(complete == requests)
        #expect(failed == 0)
        #expect(server.stop() == 0)
        let stats = try ChildProcess.run(ProjectPaths.linkhostBinary, ["stats", "--by", "kind", "--format", "json", "--db", server.database])
        let total = try JSONParser().parse(stats.output).arrayElements?.compactMap { $0["hits"]?.numberValue?.intValue }.reduce(0, +)
        #expect(total == complete)
        let sample = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["log", "--format", "json", "--utm-source", "X", "--limit", "1", "--db", server.database])
        #expect(try JSONParser().parse(sample.output).arrayElements?.first?["utm_source"] == "X")
        #expect(try folder.filesContaining("ABSECRET1") == [])
        let rate = bench.output.split(separator: "\n").first { $0.hasPrefix("Requests per second:") }.map(String.init) ?? ""
        print("ab: \(complete) requests, \(rate)")
    }
}

/// Deterministic junk: raw bytes, bad methods, broken escapes, huge queries, hostile Host headers.
struct RequestFuzzer {
    struct Request {
        let bytes: [UInt8]
        let needsFreshConnection: Bool
        let isHead: Bool
    }

    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    private mutating func pick<T>(_ items: [T]) -> T { items[random.next(below: items.count)] }

    mutating func next() -> Request {
        switch random.next(below: 10) {
        case 0:
            // Raw bytes, then a blank line, on a connection of their own.
            let length = random.next(below: 300)
            let bytes = (0..<length).map { _ in UInt8(random.next(below: 256)) }
            return Request(bytes: bytes + Array("\r\n\r\n".utf8), needsFreshConnection: true, isHead: false)
        case 1:
            let method = pick(["FOO", "get", "G\u{1}ET", String(repeating: "M", count: 300), "CONNECT", "TRACE", "PRI", "POST", "DELETE"])
            return text("\(method) /addfriend?code=TEST123 HTTP/1.1\r\nHost: rowhni.com\r\n\r\n", fresh: method.contains("\u{1}") || method.count > 200)
        case 2:
            let path = pick([
                "/addfriend%", "/%zz%zz", "/%%%%", "/%c0%ae%c0%ae/%c0%ae%c0%ae/config.json", "/showthread.php?threadid=%", "/addfriend?code=%00%ff",
                "/static/%2e%2e%2f%2e%2e%2fconfig.json", "/joingroup?code=%E2%80%AEABC", "/member.php?userid=1%20OR%201=1", "/\u{7f}",
            ])
            return text("GET \(path) HTTP/1.1\r\nHost: \(pick(["rowhni.com", "forums.somethingawful.com"]))\r\n\r\n", fresh: path.contains("\u{7f}"))
        case 3:
            let query = (0..<random.next(below: 800)).map { "p\($0)=\(String(repeating: "v", count: random.next(below: 30)))" }.joined(separator: "&")
            return text("GET /showthread.php?threadid=1&\(query) HTTP/1.1\r\nHost: forums.somethingawful.com\r\n\r\n", fresh: query.count > 20_000)
        case 4:
            let host = pick([
                "", " ", String(repeating: "h", count: 5000), "evil.com:99999", "[::1", "rowhni.com\u{0}.evil", "ROWHNI.COM.", "r%6Fwhni.com",
                "rowhni.com, forums.somethingawful.com", "<script>", "xn--nxasmq6b", "a..b", "rowhni.com:-1",
            ])
            return text("GET /addfriend?code=TEST123 HTTP/1.1\r\nHost: \(host)\r\nHost: second.example\r\n\r\n", fresh: host.contains("\u{0}"))
        case 5:
            return text(
                pick([
                    "GET /.well-known/apple-app-site-association HTTP/1.0\r\n\r\n",
                    "GET http://rowhni.com/addfriend?code=TEST123 HTTP/1.1\r\nHost: rowhni.com\r\n\r\n",
                    "OPTIONS * HTTP/1.1\r\nHost: rowhni.com\r\n\r\n",
                    "GET / HTTP/9.9\r\nHost: rowhni.com\r\n\r\n",
                    "GET /addfriend?code=TEST123 HTTP/1.1\r\nHost: rowhni.com\r\nContent-Length: -5\r\n\r\n",
                    "GET /addfriend HTTP/1.1\r\nHost: rowhni.com\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n",
                    "GET /addfriend\tHTTP/1.1\r\nHost: rowhni.com\r\n\r\n",
                    "GET /addfriend HTTP/1.1\nHost: rowhni.com\n\n",
                    "\r\n\r\nGET / HTTP/1.1\r\nHost: rowhni.com\r\n\r\n",
                    "GET / HTTP/1.1\r\nHost rowhni.com\r\n\r\n",
                ]), fresh: true)
        default:
            // Well-formed but odd: these keep the connection and exercise routing, pages and the log.
            let target = pick([
                "/addfriend?code=\(random.next(below: 100_000))X",
                "/showthread.php?threadid=\(random.next(below: 1000))&pagenumber=\(pick(["0", "x", "last", "9999999"]))",
                "/joingroup?code=A&code=B", "/.well-known/apple-app-site-association", "/static/linkhost.css", "/banlist.php?userid=-1",
                "/nowhere/\(random.next(below: 100))",
            ])
            let head = random.next(below: 5) == 0
            return Request(
                bytes: Array(
                    "\(head ? "HEAD" : "GET") \(target) HTTP/1.1\r\nHost: \(pick(["rowhni.com", "forums.somethingawful.com", "unknown.example"]))\r\nAccept-Language: \(pick(["de", "en;q=0.1", "*", ";;;"]))\r\n\r\n"
                        .utf8), needsFreshConnection: false, isHead: head)
        }
    }

    private func text(_ string: String, fresh: Bool) -> Request {
        Request(bytes: Array(string.utf8), needsFreshConnection: fresh, isHead: false)
    }
}
