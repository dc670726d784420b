import TestSupport
import Testing

/// Soaks of the built binary: hundreds of thousands of requests, minutes of processor time on a
/// 2-core machine, so they run with `bash bench/test-runs` instead of in the suite. They keep their
/// assertions (memory that keeps growing is a leak; every answer is a row) and print what they
/// measured. The suite keeps shorter runs of the same code (`RobustnessTests`).
@Suite("Soak runs of the built binary", .serialized, .enabled(if: BenchRuns.enabled, Comment(rawValue: BenchRuns.skipped)))
struct SoakBench {
    /// A first round of 100,000 fuzzed requests reaches everything that grows once and stays (thread
    /// stacks, malloc arenas, SQLite's page cache, the log queue's buffer at its high-water mark); a
    /// second round of the same must not grow the server: memory that kept growing would be a leak.
    @Test func twoHundredThousandMalformedRequestsNeitherCrashNorGrowTheServer() throws {
        let folder = try TemporaryDirectory()
        let server = try RobustnessTests.Server(database: folder.path + "/log.sqlite")
        let sent = SharedCounter()
        let answered = SharedCounter()
        RobustnessTests.fuzz(port: server.port, threads: 4, perThread: 25_000, seed: 1, sent: sent, answered: answered)
        try server.waitForLogToCatchUp()
        let before = server.residentKilobytes
        RobustnessTests.fuzz(port: server.port, threads: 4, perThread: 25_000, seed: 2, sent: sent, answered: answered)
        #expect(sent.value >= 200_000)
        try server.waitForLogToCatchUp()
        let health = try server.health()
        #expect(health["status"] != nil)
        let after = server.residentKilobytes
        print("bench: fuzzer: \(sent.value) requests sent, \(answered.value) answered; RSS after a first 100,000 \(before) kB, after 100,000 more \(after) kB")
        #expect(answered.value > 150_000)
        #expect(after - before < 16 * 1024, "RSS grew from \(before) kB to \(after) kB")
        #expect(server.stop() == 0)
        #expect(server.child.standardOutput.contains("0 dropped, 0 not written"))
    }

    /// Issue 4's acceptance: 100,000 requests from a load tool (ApacheBench), then SIGTERM.
    @Test func aHundredThousandRequestsFromALoadToolAreAllInTheLog() throws {
        try RobustnessTests.loadToolRun(requests: 100_000)
    }
}
