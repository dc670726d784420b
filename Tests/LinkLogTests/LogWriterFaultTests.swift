import Foundation
import LinkLog
import LinkLogSQLite
import Testing

/// Faults that work when tests run as root (where a chmod'ed folder stops nothing): a regular file
/// where the database folder should be, and the database deleted under a running writer.
@Suite("Log writer faults")
struct LogWriterFaultTests {
    @Test("an unwritable database: records wait in the journal, the status says why, and they are written once the fault is gone")
    func unwritableThenRecovers() throws {
        let fixture = try LogFixture()
        let blocker = try fixture.folder.write("blocker", "a file where a folder should be")
        let path = blocker + "/log/hits.sqlite"
        let writer = try fixture.writer(path: path)

        let failing = writer.status
        #expect(failing.health == .failing)
        #expect(failing.lastError?.contains("Not a directory") == true)
        #expect(failing.failingSinceMilliseconds != nil)

        var results: [Bool] = []
        for index in 0..<10 { results.append(writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index)))) }
        #expect(results == Array(repeating: true, count: 10))
        // A retry after the records were queued has failed too (the backoff itself is tested step by
        // step in WriterCycleTests); `drain` does not claim they are written.
        #expect(writer.waitForStatus(timeout: .seconds(30)) { $0.consecutiveFailures >= 2 })
        #expect(!writer.drain(timeout: .zero))
        let waiting = writer.status
        #expect(waiting.pending == 10)
        #expect(waiting.dropped == 0)
        #expect(waiting.written == 0)
        #expect(waiting.journal.usedBytes > 0)
        #expect(waiting.consecutiveFailures >= 1)
        #expect(!waiting.isHealthy)

        try FileManager.default.removeItem(atPath: blocker)
        #expect(writer.drain(timeout: .seconds(30)))
        let recovered = writer.stop()
        #expect(recovered.isHealthy)
        #expect(recovered.written == 10)
        #expect(recovered.failingSinceMilliseconds == nil)
        #expect(recovered.lastError == nil, "a fault that is over is not reported as the state")

        let reader = try LogReader(databasePath: path)
        #expect(try reader.count() == 10)
        #expect(try reader.droppedRecordCount() == 0)
        #expect(
            try reader.rows().sorted { $0.id < $1.id }.map(\.timestampMilliseconds) == (0..<10).map { Sample.baseTime + Int64($0) }, "in the order appended")
    }

    @Test("stop with the database still failing gives up at its deadline, leaves the records in the journal, and the next start writes them")
    func stopWhileFailing() throws {
        let fixture = try LogFixture()
        let blocker = try fixture.folder.write("blocker", "x")
        let writer = try fixture.writer(path: blocker + "/hits.sqlite")
        for index in 0..<5 { #expect(writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index)))) }
        // A deadline already reached: the retries up to a later one are WriterCycleTests' to show.
        let final = writer.stop(timeout: .zero)
        #expect(final.isStopped)
        #expect(final.written == 0)
        #expect(final.abandonedAtStop == 5)
        #expect(final.pending == 5)
        #expect(final.description.contains("5 left in the journal"), "\(final)")

        try FileManager.default.removeItem(atPath: blocker)
        let next = try fixture.writer(path: blocker + "/hits.sqlite")
        #expect(next.drain(timeout: .seconds(30)))
        let written = next.stop()
        #expect(written.written == 5 && written.recoveredWritten == 5 && written.pending == 0, "\(written)")
        #expect(
            try LogReader(databasePath: blocker + "/hits.sqlite").rows().sorted { $0.id < $1.id }.map(\.timestampMilliseconds)
                == (0..<5).map { Sample.baseTime + Int64($0) })
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

    /// A writer whose first row is in, and another connection holding the database's write lock.
    private func lockedWriter(_ fixture: LogFixture) throws -> (LogWriter, SQLiteConnection) {
        let writer = try fixture.writer(busyTimeout: .milliseconds(50))
        writer.enqueue(Sample.record(path: "/first"))
        #expect(writer.drain())
        let other = try SQLiteConnection(path: fixture.databasePath)
        try other.execute("BEGIN IMMEDIATE")
        return (writer, other)
    }

    @Test("a database locked by another process: records wait, the status says busy, and they are written once the lock goes")
    func lockedThenRecovers() throws {
        let fixture = try LogFixture()
        let (writer, other) = try lockedWriter(fixture)
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

    /// As the server does: each record before its response, its completion after, which the
    /// writer's hand-off keeps in memory. A failed commit sends the writer back to the journal for
    /// the batch it had taken (5 records), and a backlog of more than the hand-off's 4,096 slots
    /// has the older records read from the journal too (6,000): either way with their outcomes.
    @Test(
        "records read again from the journal (a failed batch, a backlog beyond the hand-off) keep the outcomes held in memory",
        arguments: [5, 6000])
    func outcomesSurviveTheJournal(count: Int) throws {
        let fixture = try LogFixture()
        let (writer, other) = try lockedWriter(fixture)
        for index in 0..<count {
            let ticket = try #require(writer.begin(Sample.record(path: "/p\(index)")))
            writer.complete(ticket, sent: true, durationMicroseconds: UInt64(index))
        }
        #expect(writer.waitForStatus(timeout: .seconds(30)) { $0.health == .failing })
        try other.execute("ROLLBACK")
        #expect(writer.drain(timeout: .seconds(60)))
        let final = writer.stop()
        #expect(final.written == count + 1)
        #expect(final.outcomeUnknown == 0)
        let rows = try fixture.reader().rows(LogFilter()).filter { $0.path.hasPrefix("/p") }
        #expect(rows.count == count)
        #expect(Set(rows.map(\.path)).count == count)
        #expect(rows.allSatisfy { $0.path == "/p\($0.durationMicroseconds)" })
    }

    /// A crash between a batch's commit and the journal's hand-back of its space: the next start
    /// finds the batch's records in the journal again, and the database's mark (written in the
    /// batch's transaction) says they are in. The crash is the journal file as it was before the
    /// hand-back, put back after a stop.
    @Test("records committed but not yet handed back by the journal when the process died are not written twice")
    func commitThenCrashBeforeTheJournalCheckpoint() throws {
        let fixture = try LogFixture()
        // No hand-back during the run (an hour between syncs), only at the stop.
        let writer = try fixture.writer(journalSyncInterval: .seconds(3600))
        for index in 0..<10 { #expect(writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index), path: "/once"))) }
        #expect(writer.drain())
        #expect(try fixture.reader().count() == 10, "committed")
        let crashed = try Data(contentsOf: URL(fileURLWithPath: fixture.journalPath))
        writer.stop()
        try crashed.write(to: URL(fileURLWithPath: fixture.journalPath))

        let next = try fixture.writer()
        for index in 10..<15 { #expect(next.enqueue(Sample.record(at: Sample.baseTime + Int64(index), path: "/once"))) }
        #expect(next.drain())
        let final = next.stop()
        #expect(final.written == 5, "\(final)")
        let rows = try fixture.reader().rows().sorted { $0.id < $1.id }
        #expect(rows.map(\.timestampMilliseconds) == (0..<15).map { Sample.baseTime + Int64($0) }, "each row once, in order")
    }

    /// The journal is bounded: while the database holds the writer up, a full journal drops new
    /// records at once (no request waits) and counts each one, here and in the database.
    @Test("a full journal drops new records without waiting and counts them exactly; what it took is written once the database is back")
    func fullJournalDropsAndCounts() throws {
        let fixture = try LogFixture()
        // 64 KiB of journal: a couple of hundred records.
        let writer = try fixture.writer(journalSizeBytes: 64 << 10, busyTimeout: .seconds(60))
        #expect(writer.enqueue(Sample.record(path: "/first")))
        #expect(writer.drain())
        let other = try SQLiteConnection(path: fixture.databasePath)
        try other.execute("BEGIN IMMEDIATE")
        var accepted = 0
        var refused = 0
        for index in 0..<2000 {
            if writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index), path: "/during")) { accepted += 1 } else { refused += 1 }
        }
        #expect(accepted > 50 && refused > 0, "accepted \(accepted), refused \(refused)")
        let full = writer.status
        #expect(full.dropped == refused)
        #expect(full.journal.droppedFull == refused)
        #expect(full.health == .healthy, "the writer is waiting for the lock, not failing")
        try other.execute("ROLLBACK")
        #expect(writer.drain(timeout: .seconds(60)))
        let final = writer.stop()
        #expect(final.written == 1 + accepted, "\(final)")
        #expect(try fixture.reader().count() == 1 + accepted)
        #expect(try fixture.reader().droppedRecordCount() == refused)
    }
}
