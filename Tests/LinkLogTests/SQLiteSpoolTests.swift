import LinkLog
import LinkLogSQLite
import TestSupport
import Testing

@Suite("SQLite spool")
struct SQLiteSpoolTests {
    @Test("a batch comes back as it went in, every column with it, oldest batch first")
    func roundTrip() throws {
        let folder = try TemporaryDirectory("spool")
        let spool = try SQLiteSpool(path: folder.path + "/spool.sqlite")
        #expect(try spool.isEmpty())
        let first = try spool.takeSequence()
        try spool.append([HitTableTests.everyField, Sample.record()], droppedRecords: 3, sequence: first)
        try spool.append([Sample.record(path: "/later")], droppedRecords: 0, sequence: try spool.takeSequence())
        #expect(try spool.rowCount() == 3)

        let batch = try #require(try spool.oldestBatch())
        #expect(batch.sequence == first && batch.droppedRecords == 3)
        #expect(batch.records.map(\.columnValues) == [HitTableTests.everyField.columnValues, Sample.record().columnValues])
        try spool.remove(first)
        #expect(try spool.oldestBatch()?.records.map(\.path) == ["/later"])
    }

    @Test("a spool left by a build with fewer hit columns gains the new ones and gives its batches back")
    func olderSpoolGainsColumns() throws {
        let folder = try TemporaryDirectory("spool")
        let path = folder.path + "/spool.sqlite"
        // As a build before the event and secret columns left it, with a batch waiting.
        try SQLiteConnection(path: path).execute(
            """
            CREATE TABLE spool_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE spool_batches (sequence INTEGER PRIMARY KEY, dropped INTEGER NOT NULL);
            CREATE TABLE spool_rows (position INTEGER PRIMARY KEY, sequence INTEGER NOT NULL, ts_ms INTEGER, site TEXT, host TEXT, method TEXT,
                path TEXT, kind TEXT, rule TEXT, status INTEGER, duration_us INTEGER, utm_source TEXT, utm_medium TEXT, utm_campaign TEXT,
                utm_term TEXT, utm_content TEXT, params TEXT, referrer TEXT, user_agent TEXT, client_class TEXT, client_addr TEXT);
            CREATE INDEX spool_rows_sequence ON spool_rows (sequence);
            INSERT INTO spool_meta (key, value) VALUES ('identifier', 'older'), ('reserved', '100000');
            INSERT INTO spool_batches (sequence, dropped) VALUES (7, 2);
            INSERT INTO spool_rows (sequence, ts_ms, host, method, path, kind, status, duration_us, utm_content, params)
            VALUES (7, 1793527200000, 'rowhni.com', 'GET', '/addfriend', 'fallback', 200, 9, 'poster', '{"from":"qrcode"}');
            """)

        let spool = try SQLiteSpool(path: path)
        #expect(spool.identifier == "older")
        let batch = try #require(try spool.oldestBatch())
        #expect(batch.sequence == 7 && batch.droppedRecords == 2)
        let record = try #require(batch.records.first)
        #expect(record.path == "/addfriend" && record.utmContent == "poster" && record.durationMicroseconds == 9)
        #expect(record.event == nil && record.secretToken == nil)
        #expect(record.trackedParameters.map { "\($0.name)=\($0.value)" } == ["from=qrcode"])

        let sequence = try spool.takeSequence()
        #expect(sequence > 100_000)
        try spool.append([HitTableTests.everyField], droppedRecords: 0, sequence: sequence)
        try spool.remove(7)
        #expect(try spool.oldestBatch()?.records.map(\.columnValues) == [HitTableTests.everyField.columnValues])
    }
}
