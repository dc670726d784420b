import Dispatch
import LinkLog
import LinkLogSQLite
import Synchronization
import Testing

@Suite("Log writer")
struct LogWriterTests {
    @Test("every field lands in its column; UTM values in their own, tracked parameters as a JSON object")
    func columns() throws {
        let fixture = try LogFixture()
        var record = Sample.record(
            utmSource: "newsletter", utmMedium: "email", utmCampaign: "spring",
            parameters: [("from", "qrcode"), ("ref", "a\"b")],
            userAgent: "curl/8.5.0", clientClass: "bot", clientAddress: "203.0.113.0")
        record.utmTerm = "invite"
        record.utmContent = "button"
        record.referrer = "https://example.com/"
        record.method = "HEAD"
        record.durationMicroseconds = 4321
        try fixture.write([record, Sample.record(site: nil, kind: "unknown_host", rule: nil, status: 404)])

        let rows = try fixture.reader().rows()
        #expect(rows.count == 2)
        let row = try #require(rows.first { $0.kind == "fallback" })
        #expect(row.timestampMilliseconds == Sample.baseTime)
        #expect(row.siteID == "rowhni")
        #expect(row.host == "rowhni.com")
        #expect(row.method == "HEAD")
        #expect(row.path == "/addfriend")
        #expect(row.rule == "addfriend")
        #expect(row.status == 200)
        #expect(row.durationMicroseconds == 4321)
        #expect(row.utmSource == "newsletter")
        #expect(row.utmMedium == "email")
        #expect(row.utmCampaign == "spring")
        #expect(row.utmTerm == "invite")
        #expect(row.utmContent == "button")
        #expect(row.parametersJSON == #"{"from":"qrcode","ref":"a\"b"}"#)
        #expect(row.referrer == "https://example.com/")
        #expect(row.userAgent == "curl/8.5.0")
        #expect(row.clientClass == "bot")
        #expect(row.clientAddress == "203.0.113.0")

        let bare = try #require(rows.first { $0.kind == "unknown_host" })
        #expect(bare.siteID == nil)
        #expect(bare.rule == nil)
        #expect(bare.parametersJSON == nil)
        #expect(bare.utmSource == nil)
    }

    @Test("texts longer than the cap are cut at a character boundary, in the row and its rollups alike; shorter ones are kept whole")
    func longTextsAreCapped() throws {
        let fixture = try LogFixture()
        // 16 bytes a text: "ä" is two bytes, so a cut in the middle of one must step back to its start.
        let writer = try LogWriter(
            configuration: LogWriterConfiguration(
                database: SQLiteLogDatabase(path: fixture.databasePath), journalPath: fixture.journalPath, journalSizeBytes: 16 << 20, maximumTextBytes: 16))
        let long = "abcdefghijklmnoäöü-and-more"
        let capped = "abcdefghijklmno"
        let record = Sample.record(
            utmCampaign: long, parameters: [("from", long), (long, "x")], userAgent: long + long, clientClass: "ios")
        _ = writer.enqueue(record)
        _ = writer.enqueue(Sample.record(utmCampaign: "short", userAgent: "äöü"))
        // Forty capped parameters make a params JSON larger than the writer's buffer for a row's texts
        // (16 bytes for each column): it is bound the copying way, and the texts after it still land.
        let many = (0..<40).map { (name: "p\($0)", value: String(repeating: "v", count: 16)) }
        _ = writer.enqueue(Sample.record(utmCampaign: "many", parameters: many, userAgent: "after-the-json", clientClass: "bot"))
        writer.stop()

        let rows = try fixture.reader().rows()
        let cut = try #require(rows.first { $0.utmCampaign == capped })
        #expect(cut.utmCampaign == capped)
        #expect(cut.userAgent == capped)
        #expect(cut.parametersJSON == #"{"from":"\#(capped)","\#(capped)":"x"}"#)
        let kept = try #require(rows.first { $0.utmCampaign == "short" })
        #expect(kept.userAgent == "äöü")
        let wide = try #require(rows.first { $0.utmCampaign == "many" })
        #expect(wide.parametersJSON == "{" + many.map { #""\#($0.name)":"\#($0.value)""# }.joined(separator: ",") + "}")
        #expect(wide.userAgent == "after-the-json")
        #expect(wide.clientClass == "bot")
        // The rollups counted the capped value, so statistics name the campaign as the rows do.
        #expect(
            try fixture.reader().stats(by: .utmCampaign).sorted { ($0.key ?? "") < ($1.key ?? "") } == [
                StatsRow(key: capped, hits: 1), StatsRow(key: "many", hits: 1), StatsRow(key: "short", hits: 1),
            ])
    }

    @Test("capping is in place and idempotent: a record within the cap is unchanged, a capped one stays as it is")
    func cappingTwiceChangesNothing() {
        var record = Sample.record(utmCampaign: "x" + String(repeating: "é", count: 40), parameters: [("n", "v")], userAgent: "short")
        let untouched = record
        record.capText(to: 4096)
        #expect(record.utmCampaign == untouched.utmCampaign)
        record.capText(to: 9)
        #expect(record.utmCampaign == "xéééé")
        #expect(record.userAgent == "short")
        let once = record
        record.capText(to: 9)
        #expect(record.utmCampaign == once.utmCampaign)
        #expect(record.trackedParameters.map(\.value) == ["v"])
    }

    @Test("params: a repeated name keeps its first value; names and values are JSON-escaped")
    func parametersColumn() throws {
        let fixture = try LogFixture()
        let record = Sample.record(parameters: [("from", "qr\ncode"), ("ref", "\u{1}\\"), ("from", "later"), ("é", "\u{2028}")])
        try fixture.write([record])
        let row = try #require(try fixture.reader().rows().first)
        #expect(row.parametersJSON == "{\"from\":\"qr\\ncode\",\"ref\":\"\\u0001\\\\\",\"é\":\"\u{2028}\"}")
    }

    @Test("8 threads × 5,000 concurrent enqueues give exactly 40,000 rows after drain")
    func concurrentEnqueues() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer()
        let threads = 8
        let perThread = 5000
        let accepted = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var mine = 0
            for index in 0..<perThread {
                if writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index), path: "/t\(thread)")) { mine += 1 }
            }
            accepted.withLock { $0 += mine }
        }
        #expect(accepted.withLock { $0 } == threads * perThread)
        #expect(writer.drain(timeout: .seconds(60)))
        let status = writer.status
        #expect(status.written == threads * perThread)
        #expect(status.dropped == 0)
        #expect(status.pending == 0)
        #expect(status.batches >= 1)
        #expect(try fixture.reader().count() == threads * perThread)
        let rows = try fixture.reader().rows(LogFilter())
        for thread in 0..<threads {
            #expect(rows.filter { $0.path == "/t\(thread)" }.count == perThread)
        }
        writer.stop()
    }

    @Test("records enqueued right before stop are all written; afterwards enqueue is refused")
    func stopWritesEverything() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer()
        for index in 0..<2500 { #expect(writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index)))) }
        let final = writer.stop()
        #expect(final.isStopped)
        #expect(final.enqueued == 2500)
        #expect(final.written == 2500)
        #expect(final.pending == 0)
        #expect(try fixture.reader().count() == 2500)

        #expect(writer.enqueue(Sample.record()) == false)
        #expect(writer.status.rejectedAfterStop == 1)
        #expect(writer.stop().written == 2500)
    }

    @Test("a writer released without stop still writes what it had queued")
    func releaseWithoutStop() throws {
        let fixture = try LogFixture()
        do {
            let writer = try fixture.writer()
            for _ in 0..<10 { writer.enqueue(Sample.record()) }
        }
        #expect(try fixture.reader().count() == 10)
    }

    @Test("the database folder is created, the file is in WAL mode, and the status is healthy")
    func createsFolderAndIsHealthy() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer(path: fixture.folder.path + "/a/b/c/hits.sqlite")
        let status = writer.status
        #expect(status.isHealthy)
        #expect(status.lastError == nil)
        #expect(status.database == fixture.folder.path + "/a/b/c/hits.sqlite")
        writer.stop()
        let connection = try SQLiteConnection(path: fixture.folder.path + "/a/b/c/hits.sqlite", flags: [.readOnly])
        #expect(try connection.queryText("PRAGMA journal_mode") == "wal")
        #expect(try connection.userVersion() == SQLiteLogSchema.currentVersion)
    }
}
