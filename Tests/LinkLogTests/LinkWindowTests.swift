import Foundation
import LinkLog
import LinkLogDatabases
import LinkLogSQLite
import Testing

/// `LinkWindow`: the log's links as forms with their distinct links and hits per hour, kept in a
/// file of their own from the log's new rows, against `LogReader.links` on the same log.
@Suite("The link window")
struct LinkWindowTests {
    static let hour: Int64 = 3_600_000
    /// The start of an hour.
    static let base = Sample.baseTime

    static func thread(_ id: Int, at time: Int64, kind: String = "fallback", page: Int? = nil) -> LogRecord {
        LogRecord(
            timestampMilliseconds: time, siteID: "awful", host: "forums.somethingawful.com", method: "GET", path: "/showthread.php", kind: kind,
            rule: page == nil ? "thread" : "threadPage", status: 200, durationMicroseconds: 1,
            query: "threadid=\(id)" + (page.map { "&pagenumber=\($0)" } ?? ""))
    }

    @Test func formsCountEachDistinctLinkOnceAndEveryHitInTheirWindow() throws {
        let fixture = try LogFixture()
        var records: [LogRecord] = []
        // Thread 1..30 in hour 0, threads 21..40 again in hour 2 (twice each), pages of 1..5 in hour 1.
        for id in 1...30 { records.append(Self.thread(id, at: Self.base + 60_000)) }
        for id in 1...5 { records.append(Self.thread(id, at: Self.base + Self.hour + 5, page: id + 1)) }
        for id in 21...40 {
            records.append(Self.thread(id, at: Self.base + 2 * Self.hour))
            records.append(Self.thread(id, at: Self.base + 2 * Self.hour + 9, kind: "app_open"))
        }
        // Rows that are no link someone used do not count.
        records.append(Sample.record(at: Self.base + 10, kind: "aasa"))
        try fixture.write(records)
        let window = try #require(try LogDatabaseLocator.linkWindow(forLogAt: fixture.databasePath))
        try window.catchUp(now: Self.base + 3 * Self.hour)
        let all = try window.forms(since: Self.base)
        #expect(all.map(\.query) == ["threadid=0", "threadid=0&pagenumber=0"])
        #expect(all.map(\.links) == [40, 5] && all.map(\.hits) == [70, 5])
        #expect(all.first?.example == "forums.somethingawful.com/showthread.php?threadid=1")
        // From hour 1: threads 21..40 (used again in hour 2) and the five pages; hour 0's hits are out.
        let later = try window.forms(since: Self.base + Self.hour + 30)
        #expect(later.map(\.links) == [20, 5] && later.map(\.hits) == [40, 5])
        #expect(try window.forms(since: Self.base + 3 * Self.hour).isEmpty)
        // The same totals as the log's own GROUP BY over its rows.
        let rows = try fixture.reader().links(since: Self.base, until: nil)
        #expect(rows.count == 45 && rows.reduce(0) { $0 + $1.hits } == 75)
    }

    @Test func rowsTakenInChunksAcrossOpensGiveTheSameCountsAndOlderRowsAddOnlyHits() throws {
        let fixture = try LogFixture()
        try fixture.write((1...50).map { Self.thread($0 % 17, at: Self.base + Int64($0) * 60_000) })
        do {
            let window = try #require(try LogDatabaseLocator.linkWindow(forLogAt: fixture.databasePath))
            #expect(try window.absorb(limit: 7, now: Self.base))
            #expect(window.through == 7)
        }
        // A new process opens the file where the last one left off.
        let again = try #require(try LogDatabaseLocator.linkWindow(forLogAt: fixture.databasePath))
        #expect(again.through == 7)
        while try again.absorb(limit: 9, now: Self.base) {}
        #expect(try again.forms(since: Self.base).map(\.links) == [17])
        #expect(try again.forms(since: Self.base).map(\.hits) == [50])
        // A row from an hour before (a journal replayed after a crash) adds its hit to that hour only.
        try fixture.write([Self.thread(3, at: Self.base - Self.hour)])
        try again.catchUp(now: Self.base)
        #expect(try again.forms(since: Self.base - Self.hour).map { [$0.links, $0.hits] } == [[17, 51]])
        #expect(try again.forms(since: Self.base).map { [$0.links, $0.hits] } == [[17, 50]])
    }

    @Test func aLogThatGoesBackIsMetByStartingAgain() throws {
        let fixture = try LogFixture()
        try fixture.write((1...20).map { Self.thread($0, at: Self.base) })
        let window = try #require(try LogDatabaseLocator.linkWindow(forLogAt: fixture.databasePath))
        try window.catchUp(now: Self.base)
        #expect(try window.forms(since: Self.base).map(\.links) == [20])
        // A restored backup: fewer rows than the window took in.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fixture.databasePath + suffix) }
        try fixture.write((1...3).map { Self.thread($0, at: Self.base, page: 2) })
        let restored = try #require(try LogDatabaseLocator.linkWindow(forLogAt: fixture.databasePath))
        try restored.catchUp(now: Self.base)
        #expect(try restored.forms(since: Self.base).map { [$0.links, $0.hits] } == [[3, 3]])
        #expect(try restored.forms(since: Self.base).map(\.rule) == ["threadPage"])
    }

    @Test func aFileOfTheFirstLayoutIsStartedAgain() throws {
        let fixture = try LogFixture()
        try fixture.write((1...4).map { Self.thread($0, at: Self.base) })
        let path = LogDatabaseLocator.linkWindowPath(forLogAt: fixture.databasePath)
        // Version 1 filed links by their text and kept no version.
        do {
            let old = try SQLiteConnection(path: path)
            try old.execute("CREATE TABLE window_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID")
            try old.execute("CREATE TABLE window_links (link TEXT PRIMARY KEY, form INTEGER NOT NULL, hour INTEGER NOT NULL) WITHOUT ROWID")
            try old.execute("INSERT INTO window_meta (key, value) VALUES ('through', 99)")
        }
        let window = try #require(try LogDatabaseLocator.linkWindow(forLogAt: fixture.databasePath))
        #expect(window.through == 0)
        try window.catchUp(now: Self.base)
        #expect(try window.forms(since: Self.base).map { [$0.links, $0.hits] } == [[4, 4]])
        // The key survives a reopening: the same links are the same ids.
        try fixture.write((1...6).map { Self.thread($0, at: Self.base + Self.hour) })
        let again = try #require(try LogDatabaseLocator.linkWindow(forLogAt: fixture.databasePath))
        try again.catchUp(now: Self.base + Self.hour)
        #expect(try again.forms(since: Self.base).map { [$0.links, $0.hits] } == [[6, 10]])
    }

    @Test func aPostgreSQLLogKeepsNoWindow() throws {
        #expect(try LogDatabaseLocator.linkWindow(forLogAt: "postgresql://linkhost@127.0.0.1:1/log") == nil)
    }
}
