import Foundation
import LinkLogSQLite
import TestSupport
import Testing

@testable import LinkLog
@testable import LinkLogDatabases
@testable import LinkLogPostgreSQL

/// The hit log in a real PostgreSQL server (a throwaway cluster per test, `TemporaryPostgreSQL`).
/// Skipped, with the reason, only where PostgreSQL is not installed and not in CI.
@Suite("PostgreSQL log", .ownThread, .enabled(if: !TemporaryPostgreSQL.mayBeSkipped, "PostgreSQL is not installed (apt-get install postgresql)"))
struct PostgreSQLLogTests {
    typealias R = RandomLog

    static func writer(_ database: any LogDatabase, journalPath: String? = nil) throws -> LogWriter {
        try LogWriter(
            configuration: LogWriterConfiguration(
                database: database, journalPath: journalPath ?? NSTemporaryDirectory() + "/journal-\(UUID().uuidString).hits-journal",
                journalSizeBytes: 16 << 20, initialRetryDelay: .milliseconds(20), maximumRetryDelay: .milliseconds(200)))
    }

    @Test("the same records give the same rows, statistics, funnel and listings as in SQLite, through the rollups or not")
    func answersLikeSQLite() throws {
        let server = try TemporaryPostgreSQL()
        let postgres = LogDatabaseLocator.database(at: server.url)
        #expect(postgres is PostgreSQLLogDatabase)
        let records = R.records(count: 2900, seed: 5) + R.pairedCodes(40) + R.pairedTokens(40)
        let writer = try Self.writer(postgres)
        for (index, record) in records.enumerated() {
            writer.enqueue(record)
            if index % 600 == 0 { #expect(writer.drain()) }
        }
        let final = writer.stop()
        #expect(final.written == records.count && final.isHealthy, "\(final)")

        let fixture = try LogFixture()
        try fixture.write(records)
        let sqlite = try fixture.reader()
        let fromRollups = try LogReader(database: postgres)
        let fromHits = try LogReader(database: postgres, usesRollups: false)
        #expect(try fromRollups.count() == records.count)
        var generator = SeededGenerator(seed: 6)
        var paired = 0
        for round in 0..<120 {
            let filter = R.filter(&generator)
            let dimension = StatsDimension.allCases.randomElement(using: &generator)!
            let expected = try sqlite.stats(by: dimension, filter)
            #expect(try fromRollups.stats(by: dimension, filter) == expected, "round \(round): \(dimension) \(filter)")
            #expect(try fromHits.stats(by: dimension, filter) == expected, "round \(round): \(dimension) \(filter)")
            let funnelDimension = ([nil] + FunnelDimension.allCases).randomElement(using: &generator)!
            let funnel = try sqlite.funnel(by: funnelDimension, filter)
            let rolled = try fromRollups.funnel(by: funnelDimension, filter)
            #expect(rolled == funnel, "round \(round): \(String(describing: funnelDimension)) \(filter)\n\(rolled)\n\(funnel)")
            #expect(try fromHits.funnel(by: funnelDimension, filter) == funnel, "round \(round): pairing at query time")
            if funnel.contains(where: { $0.opensAfterView > 0 }) { paired += 1 }
            var listing = filter
            listing.limit = Int.random(in: 1...30, using: &generator)
            // Row ids differ between the two databases; everything else must not.
            let withoutIDs: ([LogRow]) -> [LogRow] = {
                $0.map {
                    var row = $0
                    row.id = 0
                    return row
                }
            }
            #expect(try withoutIDs(fromRollups.rows(listing)) == withoutIDs(sqlite.rows(listing)), "round \(round): \(listing)")
        }
        #expect(paired > 10, "the funnels compared must credit opens")
        // The token pairs were written as they are: the whole funnel by campaign credits them.
        let tokens = try sqlite.funnel(by: .utmCampaign, LogFilter()).filter { $0.key?.hasPrefix("t") == true }
        #expect(tokens.map(\.bypassOpens).reduce(0, +) > 0 && tokens.map(\.installs).reduce(0, +) > 0, "\(tokens)")
        #expect(try fromRollups.funnel(by: .utmCampaign, LogFilter()) == (try sqlite.funnel(by: .utmCampaign, LogFilter())))
        #expect(try fromRollups.funnel(by: .inApp, LogFilter()) == (try sqlite.funnel(by: .inApp, LogFilter())))
    }

    @Test("previews and the campaign rule read as in SQLite: previews by app, paired opens under their views' campaigns")
    func peopleAndCampaignsLikeSQLite() throws {
        let server = try TemporaryPostgreSQL()
        let postgres = LogDatabaseLocator.database(at: server.url)
        let records =
            PeopleFunnelTests.splitLog + PeopleFunnelTests.previewers.map { PeopleFunnelTests.view(by: $0) } + PeopleFunnelTests.previewAfterView
        let writer = try Self.writer(postgres)
        for record in records { writer.enqueue(record) }
        #expect(writer.stop().written == records.count)
        let fixture = try LogFixture()
        try fixture.write(records)
        let sqlite = try fixture.reader()
        for usesRollups in [true, false] {
            let reader = try LogReader(database: postgres, usesRollups: usesRollups)
            #expect(try reader.funnel(by: .utmCampaign, LogFilter()) == (try sqlite.funnel(by: .utmCampaign, LogFilter())))
            #expect(try reader.stats(by: .utmCampaign, LogFilter(kind: "app_open")) == (try sqlite.stats(by: .utmCampaign, LogFilter(kind: "app_open"))))
            #expect(try reader.stats(by: .previewApp, LogFilter()) == (try sqlite.stats(by: .previewApp, LogFilter())))
        }
        let launch = try #require(try sqlite.funnel(by: .utmCampaign, LogFilter()).first)
        #expect(launch.key == "launch" && launch.appOpens == 5 && launch.opensAfterView == 5 && launch.previews == PeopleFunnelTests.previewers.count)
        #expect(try sqlite.stats(by: .previewApp, LogFilter()).count == PeopleFunnelTests.previewers.count + 1)
        #expect(try sqlite.funnel(by: .utmCampaign, LogFilter(utmCampaign: "reshare")).first?.opensAfterView == 0)
    }

    @Test("a rebuild gives the rollups the writer kept; retention deletes whole days from hits and rollups")
    func rebuildAndRetention() throws {
        let server = try TemporaryPostgreSQL()
        let database = LogDatabaseLocator.database(at: server.url)
        let now = LogRecord.currentTimeMilliseconds()
        let writer = try Self.writer(database)
        for index in 0..<300 { writer.enqueue(Sample.record(at: now - Int64(index) * 3 * R.hour, kind: index % 3 == 0 ? "aasa" : "fallback")) }
        for record in R.pairedCodes(40) { writer.enqueue(record) }
        writer.stop()
        let connection = try database.openConnection(readOnly: false)
        func table(_ name: String) throws -> [[SQLValue]] {
            var rows: [[SQLValue]] = []
            try connection.query("SELECT bucket_ms, kind, SUM(hits) FROM \(name) GROUP BY 1, 2 ORDER BY 1, 2", []) { rows.append($0) }
            return rows
        }
        let kept = try (table("hits_hourly"), table("hits_daily"), table("credits_hourly"), table("credits_daily"))
        #expect(try connection.queryInteger("SELECT SUM(hits) FROM credits_daily") == 40)
        try connection.execute("UPDATE hits SET view_id = NULL", [])
        #expect(try RollupBuilder(connection: connection).rebuild() == 400)
        #expect(try table("hits_hourly") == kept.0)
        #expect(try table("hits_daily") == kept.1)
        #expect(try table("credits_hourly") == kept.2)
        #expect(try table("credits_daily") == kept.3)
        // Counted on a second connection beside the writes, into emptied tables: the same tables.
        let rollupTables = RollupTableSet.allCases.flatMap { set in RollupGrain.allCases.map(set.table) } + RollupGrain.allCases.map(CreditTable.table)
        for name in rollupTables { try connection.execute("DELETE FROM \(name)", []) }
        try connection.execute("UPDATE hits SET view_id = NULL", [])
        var progress: [RollupProgress] = []
        #expect(try RollupBuilder(connection: connection, countingOn: database).rebuild { progress.append($0) } == 400)
        #expect(try table("hits_hourly") == kept.0)
        #expect(try table("hits_daily") == kept.1)
        #expect(try table("credits_hourly") == kept.2)
        #expect(try table("credits_daily") == kept.3)
        let chunks = (progress.last?.totalChunks ?? 0) / 2
        #expect(chunks >= 3 && progress.last?.chunksCountedAhead == chunks, "\(progress)")
        // A rebuild of a paired log writes again only the opens whose pairing is wrong: a row
        // written again has a new version (`xmin`, the transaction that wrote it).
        func opens() throws -> [Int64: String] {
            var versions: [Int64: String] = [:]
            try connection.query("SELECT id, xmin::text FROM hits WHERE kind = 'app_open'", []) {
                if case .integer(let id) = $0[0], case .text(let version) = $0[1] { versions[id] = version }
            }
            return versions
        }
        let unpaired = try #require(try connection.queryInteger("SELECT MIN(id) FROM hits WHERE kind = 'app_open' AND view_id IS NOT NULL"))
        try connection.execute("UPDATE hits SET view_id = NULL WHERE id = $1", [.integer(unpaired)])
        let before = try opens()
        #expect(before.count == 40)
        #expect(try RollupBuilder(connection: connection).rebuild() == 400)
        let after = try opens()
        #expect(after.keys.filter { after[$0] != before[$0] } == [unpaired])
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM hits WHERE kind = 'app_open' AND view_id IS NULL") == 0)
        #expect(try table("credits_daily") == kept.3)

        let retaining = try LogWriter(
            configuration: LogWriterConfiguration(
                database: database, journalPath: NSTemporaryDirectory() + "/journal-\(UUID().uuidString).hits-journal", journalSizeBytes: 16 << 20,
                retentionDays: 10))
        #expect(retaining.status.retentionDeletedRows > 0)
        retaining.stop()
        let cutoff = RollupGrain.day.bucketStart(now - 10 * R.day)
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM hits WHERE ts_ms < $1", [.integer(cutoff)]) == 0)
        #expect(try connection.queryInteger("SELECT SUM(hits) FROM hits_daily") == connection.queryInteger("SELECT COUNT(*) FROM hits"))
        #expect(try LogReader(database: database).stats(by: .kind) == LogReader(database: database, usesRollups: false).stats(by: .kind))
    }

    @Test("two writers into one database: every row lands and the rollups add up")
    func twoWriters() throws {
        let server = try TemporaryPostgreSQL()
        let database = LogDatabaseLocator.database(at: server.url)
        let writers = try [Self.writer(database), Self.writer(database)]
        DispatchQueue.concurrentPerform(iterations: 2) { which in
            for index in 0..<5000 {
                writers[which].enqueue(Sample.record(at: Sample.baseTime + Int64(index % 500) * 60_000, kind: which == 0 ? "aasa" : "fallback"))
            }
        }
        #expect(writers.map { $0.stop().written } == [5000, 5000])
        let reader = try LogReader(database: database)
        #expect(try reader.stats(by: .kind) == [StatsRow(key: "aasa", hits: 5000), StatsRow(key: "fallback", hits: 5000)])
        #expect(try reader.count() == 10_000)
    }

    @Test("a server restart: the writer reports the failure, keeps the rows in memory and writes them once the server is back")
    func serverRestart() throws {
        let server = try TemporaryPostgreSQL()
        let database = LogDatabaseLocator.database(at: server.url)
        let writer = try Self.writer(database)
        for index in 0..<500 { writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index))) }
        #expect(writer.drain())
        server.stop()
        for index in 500..<1000 { writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index))) }
        // Waits for the failure to be reported rather than for a time; `drain` then does not claim
        // the rows are written.
        #expect(writer.waitForStatus(timeout: .seconds(30)) { $0.health == .failing })
        #expect(!writer.drain(timeout: .zero))
        #expect(writer.status.health == .failing)
        try server.start()
        #expect(writer.drain(timeout: .seconds(30)))
        let final = writer.stop()
        #expect(final.written == 1000 && final.isHealthy, "\(final)")
        #expect(try LogReader(database: database).count() == 1000)
        #expect(try LogReader(database: database).stats(by: .kind) == [StatsRow(key: "fallback", hits: 1000)])
    }

    /// Waits until the writer's status says it is healthy again with nothing left in the journal,
    /// woken by each turn of the writer.
    static func waitUntilHealthy(_ writer: LogWriter) -> Bool {
        writer.waitForStatus(timeout: .seconds(60)) { $0.isHealthy && $0.pending == 0 }
    }

    @Test("with the server down, records wait in the journal (failing, no password shown), survive a stop, and are written in order once it is back")
    func journalWhileDown() throws {
        let server = try TemporaryPostgreSQL()
        let folder = try TemporaryDirectory("journal")
        let journalPath = folder.path + "/writer.hits-journal"
        let database = LogDatabaseLocator.database(at: server.url)
        let first = try Self.writer(database, journalPath: journalPath)
        for index in 0..<100 { first.enqueue(Sample.record(at: Sample.baseTime + Int64(index))) }
        #expect(first.drain())
        #expect(first.status.isHealthy)

        server.stop()
        for index in 100..<300 { first.enqueue(Sample.record(at: Sample.baseTime + Int64(index))) }
        #expect(first.waitForStatus(timeout: .seconds(30)) { $0.health == .failing })
        #expect(!first.drain(timeout: .zero))
        let failing = first.status
        #expect(failing.pending == 200, "\(failing)")
        #expect(failing.lastError?.contains(server.password) == false)
        let stopped = first.stop(timeout: .zero)
        #expect(stopped.written == 100 && stopped.abandonedAtStop == 200, "\(stopped)")

        // The next start writes the journal's backlog as soon as the server is back.
        try server.start()
        let second = try Self.writer(database, journalPath: journalPath)
        #expect(Self.waitUntilHealthy(second))
        let final = second.stop()
        #expect(final.recoveredWritten == 200, "\(final)")
        let rows = try LogReader(database: database).rows().sorted { $0.id < $1.id }
        #expect(rows.count == 300)
        #expect(rows.map(\.timestampMilliseconds) == (0..<300).map { Sample.baseTime + Int64($0) }, "in the order they were appended")
        #expect(try LogReader(database: database).stats(by: .kind) == [StatsRow(key: "fallback", hits: 300)])
    }

    @Test("an earlier linkhost's spool is written once at the first open, skipping a batch the database already has, then deleted")
    func replayIsExactlyOnce() throws {
        let server = try TemporaryPostgreSQL()
        let folder = try TemporaryDirectory("spool")
        let spoolPath = folder.path + "/spool.sqlite"
        let postgres = LogDatabaseLocator.database(at: server.url)
        let spool = try SQLiteSpool(path: spoolPath)
        let batch = (0..<50).map { Sample.record(at: Sample.baseTime + Int64($0)) }
        let sequence = try spool.takeSequence()
        // Committed in the database, but the writer did not hear so and kept the batch in the spool.
        let direct = try postgres.openStore(LogStoreOptions(busyTimeout: .seconds(5), maximumTextBytes: 4096))
        try direct.insert(batch, droppedRecords: 0, marker: LogBatchMarker(key: "spool:" + spool.identifier, sequence: sequence))
        try spool.append(batch, droppedRecords: 0, sequence: sequence)
        let later = (50..<80).map { Sample.record(at: Sample.baseTime + Int64($0)) }
        try spool.append(later, droppedRecords: 3, sequence: try spool.takeSequence())

        let writer = try Self.writer(SpooledLogDatabase(primary: postgres, spoolPath: spoolPath))
        #expect(Self.waitUntilHealthy(writer))
        writer.stop()
        let reader = try LogReader(database: postgres)
        #expect(try reader.count() == 80)
        #expect(try reader.droppedRecordCount() == 3)
        #expect(!FileManager.default.fileExists(atPath: spoolPath), "the spool is gone once written")
    }

    @Test("a row PostgreSQL refuses (a NUL in a text) is counted and left out; the rest of its batch and the batches after it are written")
    func refusedRowIsSkipped() throws {
        let server = try TemporaryPostgreSQL()
        let database = LogDatabaseLocator.database(at: server.url)
        let writer = try Self.writer(database)
        for index in 0..<50 {
            var record = Sample.record(at: Sample.baseTime + Int64(index))
            if index == 20 { record.userAgent = "bad\u{0}agent" }
            writer.enqueue(record)
        }
        #expect(writer.drain(timeout: .seconds(30)))
        for index in 50..<60 { writer.enqueue(Sample.record(at: Sample.baseTime + Int64(index))) }
        #expect(writer.drain(timeout: .seconds(30)))
        let final = writer.stop()
        #expect(final.written == 59 && final.refused == 1 && final.isHealthy, "\(final)")
        let reader = try LogReader(database: database)
        #expect(try reader.count() == 59)
        #expect(try reader.stats(by: .kind) == [StatsRow(key: "fallback", hits: 59)], "the rollups count the rows kept")
        #expect(try reader.rows().map(\.timestampMilliseconds).contains(Sample.baseTime + 20) == false)
    }

    @Test("the password is in no error, status or name; a wrong one fails with the server's reason")
    func passwordNeverShown() throws {
        let server = try TemporaryPostgreSQL()
        let database = LogDatabaseLocator.database(at: server.url)
        #expect(!database.displayName.contains(server.password))
        #expect(database.displayName == "postgresql://linkhost@127.0.0.1:\(server.port)/postgres")

        let wrong = "postgresql://linkhost:not-\(server.password)@127.0.0.1:\(server.port)/postgres"
        let error = #expect(throws: PostgreSQLError.self) { _ = try LogDatabaseLocator.database(at: wrong).openConnection(readOnly: true) }
        #expect(error?.description.contains("password authentication failed") == true, "\(String(describing: error))")
        #expect(error?.description.contains(server.password) == false)

        let query = PostgreSQLConnectionSettings(url: "postgres://u@host/db?sslmode=disable&password=s3cr%40t&x=1")
        #expect(query?.displayName == "postgres://u@host/db?sslmode=disable&password=***&x=1")
        #expect(query?.redacting("bad s3cr@t and s3cr%40t") == "bad *** and ***")

        server.stop()
        let writer = try Self.writer(database)
        let status = writer.stop(timeout: .milliseconds(100))
        #expect(status.database == database.displayName)
        #expect(status.lastError?.contains(server.password) == false)
        #expect(status.lastError != nil)
    }

    @Test("the distinct links of a window are read with their queries and counts, as in SQLite")
    func linksLikeSQLite() throws {
        let server = try TemporaryPostgreSQL()
        let folder = try TemporaryDirectory()
        func record(_ kind: String, _ query: String?, at offset: Int64) -> LogRecord {
            LogRecord(
                timestampMilliseconds: 1_793_527_200_000 + offset, siteID: "awful", host: "forums.somethingawful.com", method: "GET",
                path: "/showthread.php", kind: kind, rule: "thread", status: 200, durationMicroseconds: 1, query: query)
        }
        let records = [
            record("fallback", "threadid=1", at: 0), record("app_open", "threadid=1", at: 10), record("fallback", nil, at: 20),
            record("aasa", nil, at: 30), record("fallback", "threadid=3", at: -1000),
        ]
        var answers: [[LoggedLink]] = []
        for database in [LogDatabaseLocator.database(at: server.url), LogDatabaseLocator.database(at: folder.path + "/log.sqlite")] {
            let writer = try Self.writer(database)
            for entry in records { writer.enqueue(entry) }
            writer.stop()
            answers.append(try LogReader(database: database).links(since: 1_793_527_200_000, until: nil))
        }
        #expect(answers[0].map { "\($0.query ?? "-") \($0.hits) \($0.isBeforeQueries)" } == ["threadid=1 2 false", "- 1 false"])
        #expect(answers[0] == answers[1])
    }

    @Test("rows loaded with COPY read back as given: NULL, integers, and texts with backslashes, tabs, line breaks and \\N")
    func copyKeepsEveryValue() throws {
        let server = try TemporaryPostgreSQL()
        let connection = try PostgreSQLConnection(settings: PostgreSQLConnectionSettings(url: server.url)!)
        try connection.execute("CREATE TABLE copied (position BIGINT, value TEXT, number BIGINT)")
        let texts = ["plain", "tab\there", "line\nbreak", "carriage\rreturn", "back\\slash", "\\N", "", "ünïcødé 🙂", "end\\"]
        let rows =
            texts.enumerated().map { [SQLValue.integer(Int64($0)), .text($1), .integer(Int64.min + Int64($0))] }
            + [[.integer(Int64(texts.count)), .null, .null]]
        try connection.copyRows(into: "copied", columns: ["position", "value", "number"], rows: rows)
        var read: [[SQLValue]] = []
        try connection.query("SELECT position, value, number FROM copied ORDER BY position", []) { read.append($0) }
        #expect(read == rows)
        // A failing COPY (a text where a number belongs) throws and leaves the connection usable.
        #expect(throws: PostgreSQLError.self) { try connection.copyRows(into: "copied", columns: ["position"], rows: [[.text("x")]]) }
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM copied") == Int64(rows.count))
    }

    @Test("array parameters read back as given: NULL, the text NULL, quotes, backslashes, braces, commas and spaces; a prepared statement runs again")
    func arrayParametersKeepEveryValue() throws {
        let server = try TemporaryPostgreSQL()
        let connection = try PostgreSQLConnection(settings: PostgreSQLConnectionSettings(url: server.url)!)
        try connection.execute("CREATE TABLE arrayed (position BIGINT, value TEXT, number INTEGER)")
        let texts = [
            "plain", "NULL", "null", "", " spaced ", "\"quoted\"", "back\\slash", "end\\", "{braces}", "a,b", "tab\there", "line\nbreak",
            "ünïcødé 🙂", "\\\"", "'single'",
        ]
        let rows =
            texts.enumerated().map { [SQLValue.integer(Int64($0)), .text($1), .integer(Int64(Int32.min) + Int64($0))] } + [
                [.integer(Int64(texts.count)), .null, .null]
            ]
        let insert = "INSERT INTO arrayed SELECT * FROM unnest($1::bigint[], $2::text[], $3::integer[])"
        func arguments(_ rows: [[SQLValue]]) -> [SQLValue] {
            (0..<3).map { column in .text(PostgreSQLConnection.arrayLiteral(rows.map { $0[column] })) }
        }
        #expect(try connection.execute(insert, arguments(rows), prepared: true) == rows.count)
        var read: [[SQLValue]] = []
        try connection.query("SELECT position, value, number FROM arrayed ORDER BY position", []) { read.append($0) }
        #expect(read == rows)
        // The prepared statement again, with one row and with none.
        #expect(try connection.execute(insert, arguments([[.integer(100), .text("again"), .integer(1)]]), prepared: true) == 1)
        #expect(try connection.execute(insert, arguments([]), prepared: true) == 0)
        // A failing run throws and leaves the connection and the prepared statement usable.
        #expect(throws: PostgreSQLError.self) { try connection.execute(insert, [.text("{x}"), .text("{a}"), .text("{1}")], prepared: true) }
        #expect(try connection.execute(insert, arguments([[.integer(101), .text("after"), .integer(2)]]), prepared: true) == 1)
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM arrayed") == Int64(rows.count + 2))
    }

    @Test("a reader never creates the log's tables")
    func readerNeedsTheTables() throws {
        let server = try TemporaryPostgreSQL()
        let error = #expect(throws: LogError.self) { _ = try LogReader(database: LogDatabaseLocator.database(at: server.url)) }
        #expect(error == .databaseMissing(path: LogDatabaseLocator.database(at: server.url).displayName))
    }

    @Test("a database migrated from version 5 has the schema of a new one")
    func migratedEqualsNew() throws {
        let server = try TemporaryPostgreSQL()
        let new = LogDatabaseLocator.database(at: server.url)
        let newConnection = try new.openConnection(readOnly: false)
        try newConnection.execute("CREATE DATABASE migrated", [])
        let migratedURL = server.url.replacingOccurrences(of: "/postgres", with: "/migrated")
        let old = try PostgreSQLConnection(settings: try #require(PostgreSQLConnectionSettings(url: migratedURL)))
        // Version 5 as the first PostgreSQL log was made, with a view and the app open that followed
        // it for the version 6 migration to pair.
        try old.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL)")
        for statement in try #require(PostgreSQLLogSchema.migrations.first { $0.version == 5 }).statements { try old.execute(statement) }
        try old.execute("INSERT INTO meta (key, value) VALUES ('schema_version', 5)")
        try old.execute(
            """
            INSERT INTO hits (ts_ms, site, host, method, path, kind, rule, status, duration_us, secret)
            VALUES (1793527200000, 'rowhni', 'rowhni.com', 'GET', '/addfriend', 'fallback', 'addfriend', 200, 120, 'hmac:0011223344556677'),
                   (1793527260000, 'rowhni', 'rowhni.com', 'POST', '/v1/opens', 'app_open', 'addfriend', 204, 80, 'hmac:0011223344556677')
            """)
        let migrated = try LogDatabaseLocator.database(at: migratedURL).openConnection(readOnly: false)
        #expect(try migrated.queryInteger("SELECT COUNT(*) FROM hits WHERE view_id IS NOT NULL") == 1)
        // Its rows come from before the log kept queries: the check answers them by path alone.
        let links = try LogReader(connection: migrated, databaseName: "migrated").links(since: 0, until: nil)
        #expect(links.map(\.isBeforeQueries) == [true, true])

        let migratedSchema = try Self.schema(migrated)
        let newSchema = try Self.schema(newConnection)
        #expect(newSchema.contains { $0.contains("hits_open_secret") && $0.contains("WHERE ((kind = 'app_open'::text) AND (secret IS NOT NULL))") })
        #expect(
            migratedSchema == newSchema,
            "only after migrating: \(migratedSchema.filter { !newSchema.contains($0) }); only when new: \(newSchema.filter { !migratedSchema.contains($0) })")
    }

    @Test("a version 8 log whose index of views by code was built ahead, concurrently, migrates keeping it")
    func indexBuiltAheadIsKept() throws {
        let server = try TemporaryPostgreSQL()
        let database = LogDatabaseLocator.database(at: server.url)
        let connection = try database.openConnection(readOnly: false)
        let newSchema = try Self.schema(connection)
        // Back to version 8, with a view to index.
        for statement in [
            "DROP INDEX hits_view_secret", "CREATE INDEX hits_secret_time ON hits (secret, ts_ms) WHERE secret IS NOT NULL",
            "UPDATE meta SET value = 8 WHERE key = 'schema_version'",
        ] {
            try connection.execute(statement, [])
        }
        try connection.execute(
            """
            INSERT INTO hits (ts_ms, site, host, method, path, kind, rule, status, duration_us, secret)
            VALUES (1793527200000, 'rowhni', 'rowhni.com', 'GET', '/addfriend', 'fallback', 'addfriend', 200, 120, 'hmac:0011223344556677')
            """, [])
        // What docs/fleet.md has a fleet run before upgrading: the index built without holding off writes.
        let ahead = try #require(HitTable.indexes.first { $0.name == "hits_view_secret" }).createSQL
        try connection.execute(ahead.replacingOccurrences(of: "CREATE INDEX ", with: "CREATE INDEX CONCURRENTLY IF NOT EXISTS "), [])
        let migrated = try database.openConnection(readOnly: false)
        #expect(try migrated.queryInteger("SELECT value FROM meta WHERE key = 'schema_version'") == Int64(PostgreSQLLogSchema.currentVersion))
        #expect(try Self.schema(migrated) == newSchema)
    }

    /// Everything PostgreSQL says about a database's tables, one line per fact: the version, the
    /// columns (`information_schema.columns`), the constraints and the indexes (`pg_indexes`).
    static func schema(_ connection: any LogSQLConnection) throws -> [String] {
        func lines(_ label: String, _ sql: String) throws -> [String] {
            var lines: [String] = []
            try connection.query(sql, []) { row in lines.append(label + " " + row.map { $0.text ?? "NULL" }.joined(separator: " | ")) }
            return lines
        }
        return try lines("meta", "SELECT key, value FROM meta WHERE key = 'schema_version'")
            + lines(
                "column",
                """
                SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default, is_identity, identity_generation
                FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position
                """)
            + lines(
                "constraint",
                """
                SELECT table_name, constraint_name, constraint_type FROM information_schema.table_constraints
                WHERE table_schema = current_schema() AND constraint_type <> 'CHECK' ORDER BY table_name, constraint_name
                """)
            + lines("index", "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname")
    }
}
