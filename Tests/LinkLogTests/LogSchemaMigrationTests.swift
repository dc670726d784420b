import Foundation
import LinkLog
import LinkLogSQLite
import Testing

@Suite("Schema migrations")
struct LogSchemaMigrationTests {
    /// A log database in a fresh folder, made by an earlier schema's SQL (as an older linkhost left it).
    static func database(written sql: String) throws -> LogFixture {
        let fixture = try LogFixture()
        try FileManager.default.createDirectory(atPath: fixture.folder.path + "/log", withIntermediateDirectories: true)
        try SQLiteConnection(path: fixture.databasePath).execute(sql)
        return fixture
    }

    /// Version 1 exactly as the first release wrote it, typed out here (not taken from the library)
    /// so the test keeps describing the old file even if someone edits the migrations.
    static let version1 = """
        CREATE TABLE hits (
            id INTEGER PRIMARY KEY, ts_ms INTEGER NOT NULL, site TEXT, host TEXT NOT NULL, method TEXT NOT NULL,
            path TEXT NOT NULL, kind TEXT NOT NULL, rule TEXT, status INTEGER NOT NULL, duration_us INTEGER NOT NULL,
            utm_source TEXT, utm_medium TEXT, utm_campaign TEXT, utm_term TEXT, utm_content TEXT,
            referrer TEXT, user_agent TEXT, client_addr TEXT
        );
        CREATE INDEX hits_time ON hits (ts_ms);
        CREATE INDEX hits_kind_time ON hits (kind, ts_ms);
        CREATE INDEX hits_rule_time ON hits (rule, ts_ms);
        CREATE INDEX hits_host_time ON hits (host, ts_ms);
        PRAGMA journal_mode = WAL;
        PRAGMA user_version = 1;
        INSERT INTO hits (ts_ms, site, host, method, path, kind, rule, status, duration_us, utm_source, utm_campaign, user_agent, client_addr)
        VALUES (1793527200000, 'rowhni', 'rowhni.com', 'GET', '/addfriend', 'fallback', 'addfriend', 200, 120, 'newsletter', 'spring', 'AASA-Bot/1.0.0', '203.0.113.0'),
               (1793527201000, 'rowhni', 'rowhni.com', 'GET', '/joingroup', 'fallback', 'joingroup', 200, 130, NULL, NULL, 'curl/8.5.0', NULL),
               (1793527202000, NULL, 'other.example', 'GET', '/', 'unknown_host', NULL, 404, 40, NULL, NULL, NULL, NULL);
        """

    @Test("a version 1 database opened by the writer keeps its rows and gains the new columns")
    func upgradeFromVersion1() throws {
        let fixture = try Self.database(written: Self.version1)

        let writer = try fixture.writer()
        #expect(writer.status.isHealthy)
        writer.enqueue(Sample.record(at: 1_793_527_203_000, parameters: [("from", "qrcode")], clientClass: "ios"))
        writer.stop()

        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        #expect(try connection.userVersion() == SQLiteLogSchema.currentVersion)
        let columns = try connection.prepare("SELECT name FROM pragma_table_info('hits')")
        var names: [String] = []
        while try columns.step() { names.append(columns.text(at: 0) ?? "") }
        #expect(names.contains("params"))
        #expect(names.contains("client_class"))
        // Version 5: the rollups replaced the per-column indexes of versions 1 to 3; a time range
        // still uses the time index. Version 6 adds the index of app opens by their view, version 8
        // the one of rows by view token, version 9 narrows the one by code to views, and version 10
        // drops it for the chains of views by code.
        let indexes = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'hits' ORDER BY name")
        var indexNames: [String] = []
        while try indexes.step() { indexNames.append(indexes.text(at: 0) ?? "") }
        #expect(
            indexNames == [
                "hits_bypass_time", "hits_open_secret", "hits_open_time", "hits_open_token", "hits_time", "hits_view", "hits_view_token",
            ])
        let plan = try connection.prepare("EXPLAIN QUERY PLAN SELECT id FROM hits WHERE utm_source = ?1 AND ts_ms >= ?2")
        var details: [String] = []
        while try plan.step() { details.append(plan.text(at: 3) ?? "") }
        #expect(details.joined().contains("hits_time"), "\(details)")
        // The rollups were built from the old rows, and the writer added the new one.
        #expect(try connection.queryInteger("SELECT SUM(hits) FROM hits_hourly") == 4)
        #expect(try connection.queryInteger("SELECT SUM(hits) FROM hits_daily") == 4)

        let rows = try fixture.reader().rows()
        #expect(rows.count == 4)
        let first = try #require(rows.first { $0.path == "/addfriend" && $0.timestampMilliseconds == 1_793_527_200_000 })
        #expect(first.utmSource == "newsletter")
        #expect(first.utmCampaign == "spring")
        #expect(first.clientAddress == "203.0.113.0")
        #expect(first.durationMicroseconds == 120)
        // Old rows get a client class from their user agent.
        #expect(rows.sorted { $0.id < $1.id }.map(\.clientClass) == ["aasa-bot", "bot", "unknown", "ios"])
        #expect(rows.first { $0.kind == "unknown_host" }?.siteID == nil)
        #expect(rows.first { $0.timestampMilliseconds == 1_793_527_203_000 }?.parametersJSON == #"{"from":"qrcode"}"#)
    }

    /// Version 3 as linkhost wrote it before app opens and page events, typed out like `version1`.
    static let version3 = """
        CREATE TABLE hits (
            id INTEGER PRIMARY KEY, ts_ms INTEGER NOT NULL, site TEXT, host TEXT NOT NULL, method TEXT NOT NULL,
            path TEXT NOT NULL, kind TEXT NOT NULL, rule TEXT, status INTEGER NOT NULL, duration_us INTEGER NOT NULL,
            utm_source TEXT, utm_medium TEXT, utm_campaign TEXT, utm_term TEXT, utm_content TEXT,
            referrer TEXT, user_agent TEXT, client_addr TEXT, params TEXT, client_class TEXT
        );
        CREATE INDEX hits_time ON hits (ts_ms);
        CREATE INDEX hits_kind_time ON hits (kind, ts_ms);
        CREATE INDEX hits_host_time ON hits (host, ts_ms);
        CREATE INDEX hits_rule_time ON hits (rule, ts_ms) WHERE rule IS NOT NULL;
        CREATE INDEX hits_utm_source_time ON hits (utm_source, ts_ms) WHERE utm_source IS NOT NULL;
        CREATE INDEX hits_utm_campaign_time ON hits (utm_campaign, ts_ms) WHERE utm_campaign IS NOT NULL;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        PRAGMA journal_mode = WAL;
        PRAGMA user_version = 3;
        INSERT INTO meta (key, value) VALUES ('dropped_records', 5);
        INSERT INTO hits (ts_ms, site, host, method, path, kind, rule, status, duration_us, utm_campaign, params, client_class)
        VALUES (1793527200000, 'rowhni', 'rowhni.com', 'GET', '/addfriend', 'fallback', 'addfriend', 200, 120, 'spring', '{"code":"hmac:0011223344556677"}', 'ios'),
               (1793527201000, NULL, 'other.example', 'GET', '/', 'unknown_host', NULL, 404, 40, NULL, NULL, 'bot');
        """

    @Test("a version 3 database gains the event and secret columns and the chains of views by code, keeping rows and counters")
    func upgradeFromVersion3() throws {
        let fixture = try Self.database(written: Self.version3)

        let writer = try fixture.writer()
        #expect(writer.status.isHealthy)
        writer.enqueue(Sample.record(at: 1_793_527_202_000, path: "/v1/events", kind: "event", status: 204, method: "POST", event: "store"))
        writer.enqueue(
            Sample.record(at: 1_793_527_203_000, path: "/v1/opens", kind: "app_open", status: 204, method: "POST", secretToken: "hmac:8899aabbccddeeff"))
        writer.stop()

        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        #expect(try connection.userVersion() == SQLiteLogSchema.currentVersion)
        let columns = try connection.prepare("SELECT name FROM pragma_table_info('hits')")
        var names: [String] = []
        while try columns.step() { names.append(columns.text(at: 0) ?? "") }
        #expect(names.suffix(8) == ["event", "secret", "view_id", "query", "referrer_host", "in_app", "view_token", "preview_app"])
        // Version 4's index of rows by code, narrowed to views by version 9, gave way to the
        // chains of views by code in version 10.
        #expect(try connection.queryText("SELECT sql FROM sqlite_master WHERE name = 'hits_secret_time'") == nil)
        #expect(try connection.queryText("SELECT sql FROM sqlite_master WHERE name = 'hits_view_secret'") == nil)
        #expect(try connection.queryText("SELECT sql FROM sqlite_master WHERE name = 'view_chain'") != nil)

        let reader = try fixture.reader()
        #expect(try reader.droppedRecordCount() == 5)
        let rows = try reader.rows().sorted { $0.id < $1.id }
        #expect(rows.map(\.kind) == ["fallback", "unknown_host", "event", "app_open"])
        #expect(rows[0].utmCampaign == "spring")
        #expect(rows[0].parametersJSON == #"{"code":"hmac:0011223344556677"}"#)
        #expect(rows[0].clientClass == "ios")
        #expect(rows.map(\.event) == [nil, nil, "store", nil])
        #expect(rows.map(\.secret) == [nil, nil, nil, "hmac:8899aabbccddeeff"])
    }

    @Test("the reader upgrades an old database too, and refuses one from a newer linkhost")
    func readerUpgradesAndRefusesNewer() throws {
        let fixture = try Self.database(written: Self.version1)
        #expect(try fixture.reader().count() == 3)
        #expect(try fixture.reader().stats(by: .client).map(\.hits) == [1, 1, 1])

        let newer = try SQLiteConnection(path: fixture.databasePath)
        try newer.setUserVersion(99)
        let error = #expect(throws: LogError.self) { try fixture.reader() }
        #expect(error == .schemaTooNew(path: fixture.databasePath, found: 99, supported: SQLiteLogSchema.currentVersion))
    }

    @Test("the reader never creates a database")
    func readerNeedsAnExistingFile() throws {
        let fixture = try LogFixture()
        let error = #expect(throws: LogError.self) { try fixture.reader() }
        #expect(error == .databaseMissing(path: fixture.databasePath))
    }

    @Test("a version 5 database gains the pairing: its app opens are paired with their views and the credit rollup counts them")
    func version5GainsThePairing() throws {
        typealias S = FunnelSample
        let fixture = try LogFixture()
        try fixture.write([
            S.view("A", campaign: "spring"), S.open("A", at: S.base + S.hour), S.view("B", at: S.base + S.day, campaign: "autumn"),
            S.view("B", at: S.base + 2 * S.day, campaign: "winter"), S.open("B", at: S.base + 3 * S.day), S.open("C", at: S.base + S.hour),
        ])
        // Back to version 5 as an older linkhost left it: no pairing column, index, chains or credit
        // tables, and the index by code over every row with a code.
        let connection = try SQLiteConnection(path: fixture.databasePath)
        try connection.execute(
            """
            ALTER TABLE hits DROP COLUMN preview_app;
            DROP INDEX hits_view_token; DROP INDEX hits_open_token; DROP INDEX hits_bypass_time; ALTER TABLE hits DROP COLUMN view_token;
            ALTER TABLE hits DROP COLUMN in_app;
            ALTER TABLE hits DROP COLUMN referrer_host;
            ALTER TABLE hits DROP COLUMN query; DROP INDEX hits_view; DROP INDEX hits_open_secret; ALTER TABLE hits DROP COLUMN view_id;
            DROP TABLE credits_hourly; DROP TABLE credits_daily;
            DROP TABLE view_chain; DELETE FROM meta WHERE key = 'view_chain_through';
            CREATE INDEX hits_secret_time ON hits (secret, ts_ms) WHERE secret IS NOT NULL;
            PRAGMA user_version = 5;
            """)
        let reader = try fixture.reader()
        #expect(try connection.userVersion() == SQLiteLogSchema.currentVersion)
        let funnel = try reader.funnel(by: .utmCampaign)
        #expect(funnel == (try LogReader(databasePath: fixture.databasePath, usesRollups: false).funnel(by: .utmCampaign)))
        #expect(funnel.map { [$0.key ?? "-": $0.opensAfterView] } == [["autumn": 0], ["spring": 1], ["winter": 1], ["-": 0]], "\(funnel)")
        #expect(try connection.queryInteger("SELECT SUM(hits) FROM credits_daily") == 2)
    }

    @Test("a database migrated from version 1 through every migration has the schema of a new one")
    func migratedEqualsNew() throws {
        let migrated = try Self.database(written: Self.version1)
        try migrated.writer().stop()
        let new = try LogFixture()
        try new.writer().stop()

        let migratedSchema = try Self.schema(of: migrated.databasePath)
        let newSchema = try Self.schema(of: new.databasePath)
        #expect(newSchema.contains { $0.hasPrefix("index hits_open_secret: ") && $0.contains("WHERE kind='app_open' AND secret IS NOT NULL") })
        #expect(
            migratedSchema == newSchema,
            "only after migrating: \(migratedSchema.filter { !newSchema.contains($0) }); only when new: \(newSchema.filter { !migratedSchema.contains($0) })")
    }

    /// Everything SQLite says about a database's schema, one line per fact, each table's and
    /// index's SQL with its whitespace normalised: `sqlite_master`, and per table its columns
    /// (`table_info`), its indexes (`index_list`) and their columns (`index_xinfo`).
    static func schema(of path: String) throws -> [String] {
        let connection = try SQLiteConnection(path: path, flags: [.readOnly])
        func rows(_ sql: String, _ arguments: [SQLValue] = []) throws -> [[String]] {
            var rows: [[String]] = []
            try connection.query(sql, arguments) { rows.append($0.map { $0.text ?? "NULL" }) }
            return rows
        }
        var lines = ["user_version \(try connection.userVersion())"]
        var tables: [String] = []
        for row in try rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name") {
            lines.append("\(row[0]) \(row[1]): on \(row[2]): \(normalised(row[3]))")
            if row[0] == "table" { tables.append(row[1]) }
        }
        for table in tables {
            for column in try rows("SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1)", [.text(table)]) {
                lines.append("column \(table).\(column.joined(separator: " "))")
            }
            for index in try rows("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1) ORDER BY name", [.text(table)]) {
                lines.append("index of \(table): \(index.joined(separator: " "))")
                for column in try rows("SELECT seqno, cid, name, \"desc\", coll, \"key\" FROM pragma_index_xinfo(?1)", [.text(index[0])]) {
                    lines.append("index column \(index[0]).\(column.joined(separator: " "))")
                }
            }
        }
        return lines
    }

    /// `sql` with runs of whitespace made one space, and none beside brackets and commas.
    static func normalised(_ sql: String) -> String {
        var text = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for mark in ["(", ")", ",", "="] {
            text = text.replacingOccurrences(of: " " + mark, with: mark).replacingOccurrences(of: mark + " ", with: mark)
        }
        return text
    }
}
