import Foundation
import LinkLog
import LinkLogSQLite
import Testing

/// Faults that work when tests run as root (where a chmod'ed folder stops nothing): a regular file
/// where the database folder should be, and the database deleted under a running writer.
@Suite("Log writer faults")
struct LogWriterFaultTests {
    @Test("an unwritable database: records wait in memory up to capacity, the status says why, and they are written once the fault is gone")
    func unwritableThenRecovers() throws {
        let fixture = try LogFixture()
        let blocker = try fixture.folder.write("blocker", "a file where a folder should be")
        let path = blocker + "/log/hits.sqlite"
        let writer = try fixture.writer(path: path, capacity: 8)

        let failing = writer.status
        #expect(failing.health == .failing)
        #expect(failing.lastError?.contains("Not a directory") == true)
        #expect(failing.failingSinceMilliseconds != nil)

        var results: [Bool] = []
        for index in 0..<10 { results.append(writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index)))) }
        #expect(results == Array(repeating: true, count: 8) + [false, false])
        // A retry after the records were queued has failed too (the backoff itself is tested step by
        // step in WriterCycleTests); `drain` does not claim they are written.
        #expect(writer.waitForStatus(timeout: .seconds(30)) { $0.consecutiveFailures >= 2 })
        #expect(!writer.drain(timeout: .zero))
        let waiting = writer.status
        #expect(waiting.pending == 8)
        #expect(waiting.dropped == 2)
        #expect(waiting.written == 0)
        #expect(waiting.consecutiveFailures >= 1)
        #expect(!waiting.isHealthy)

        try FileManager.default.removeItem(atPath: blocker)
        #expect(writer.drain(timeout: .seconds(30)))
        let recovered = writer.stop()
        #expect(recovered.isHealthy)
        #expect(recovered.written == 8)
        #expect(recovered.failingSinceMilliseconds == nil)
        #expect(recovered.lastError != nil, "the last error stays visible after recovery")

        let reader = try LogReader(databasePath: path)
        #expect(try reader.count() == 8)
        // The refused records are counted in the database too.
        #expect(try reader.droppedRecordCount() == 2)
        #expect(try reader.rows().map(\.timestampMilliseconds).sorted() == (0..<8).map { Sample.baseTime + Int64($0) })
    }

    @Test("stop with the database still failing gives up at its deadline and counts what was lost")
    func stopWhileFailing() throws {
        let fixture = try LogFixture()
        let blocker = try fixture.folder.write("blocker", "x")
        let writer = try fixture.writer(path: blocker + "/hits.sqlite", capacity: 100)
        for _ in 0..<5 { #expect(writer.enqueue(Sample.record())) }
        // A deadline already reached: the retries up to a later one are WriterCycleTests' to show.
        let final = writer.stop(timeout: .zero)
        #expect(final.isStopped)
        #expect(final.written == 0)
        #expect(final.abandonedAtStop == 5)
        #expect(final.pending == 0)
        #expect(final.description.contains("5 lost at stop"))
    }

    @Test("a database deleted under a running writer is created again and later rows land in it")
    func deletedDatabaseIsRecreated() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer()
        for _ in 0..<3 { writer.enqueue(Sample.record(path: "/before")) }
        #expect(writer.drain())

        // The whole folder goes, as an operator clearing out the log might do.
        try FileManager.default.removeItem(atPath: fixture.folder.path + "/log")
        for _ in 0..<4 { writer.enqueue(Sample.record(path: "/after")) }
        #expect(writer.drain(timeout: .seconds(30)))
        let final = writer.stop()
        #expect(final.written == 7)

        let rows = try fixture.reader().rows()
        #expect(rows.map(\.path) == Array(repeating: "/after", count: 4))
    }

    @Test("a database locked by another process: records wait, the status says busy, and they are written once the lock goes")
    func lockedThenRecovers() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer(busyTimeout: .milliseconds(50))
        writer.enqueue(Sample.record(path: "/first"))
        #expect(writer.drain())

        let other = try SQLiteConnection(path: fixture.databasePath)
        try other.execute("BEGIN IMMEDIATE")
        for _ in 0..<5 { #expect(writer.enqueue(Sample.record(path: "/while-locked"))) }
        #expect(writer.waitForStatus(timeout: .seconds(30)) { $0.health == .failing })
        #expect(!writer.drain(timeout: .zero))
        let locked = writer.status
        #expect(locked.health == .failing)
        #expect(locked.lastError?.contains("locked") == true)
        #expect(locked.pending == 5)

        try other.execute("ROLLBACK")
        #expect(writer.drain(timeout: .seconds(30)))
        #expect(writer.stop().written == 6)
        #expect(try fixture.reader().count(LogFilter(host: "rowhni.com")) == 6)
    }

    /// A queue that is full waits for the writer's commits, so a load it cannot keep up with is
    /// slowed rather than losing rows; it drops (and counts) only once nothing drains it.
    @Test("a full queue waits for each commit and loses nothing; with nothing draining it, it drops after the wait")
    func fullQueueWaitsForRoom() throws {
        let fixture = try LogFixture()
        // Room for one record: every later one waits for the commit of the one before.
        let writer = try fixture.writer(capacity: 1, fullQueueWait: .seconds(60))
        for index in 0..<300 { #expect(writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index), path: "/waited"))) }
        #expect(writer.drain(timeout: .seconds(60)))
        #expect(writer.status.dropped == 0)
        #expect(try fixture.reader().count() == 300)

        // Held by another connection, the database takes no commit for as long as the writer's busy
        // timeout (60 s): the one record in flight fills the queue, and the next waits its 50 ms.
        let stalled = try LogFixture()
        let slow = try stalled.writer(capacity: 1, fullQueueWait: .milliseconds(50), busyTimeout: .seconds(60))
        #expect(slow.enqueue(Sample.record(path: "/first")))
        #expect(slow.drain())
        let other = try SQLiteConnection(path: stalled.databasePath)
        try other.execute("BEGIN IMMEDIATE")
        #expect(slow.enqueue(Sample.record(path: "/in-flight")))
        #expect(!slow.enqueue(Sample.record(path: "/dropped")))
        #expect(slow.status.dropped == 1)
        #expect(slow.status.waitedForRoom == 1)
        #expect(slow.status.health == .healthy, "the writer is waiting for the lock, not failing")
        try other.execute("ROLLBACK")
        #expect(slow.stop().written == 2)
    }
}
