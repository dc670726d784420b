import LinkLogSQLite
import TestSupport
import Testing

@testable import LinkLog

/// The SQLite log's chains of views by code (`SQLiteViewChains`) against a search of every view:
/// the pairing's answer for a code must not depend on how its views are found.
@Suite("Views by code through chains")
struct SQLiteViewChainsTests {
    typealias S = FunnelSample

    /// A view as the reference search reads it back from `hits`.
    struct View {
        let id: Int64
        let time: Int64
        let secret: String?
        let site: String?
        let rule: String?
        let isPairable: Bool
    }

    /// Codes of which the first two, and the next two, share a bucket: so a bucket's chain holds
    /// views of more than one code, as it does on a large log.
    static let codes: [String] = {
        var byBucket: [Int: String] = [:]
        var colliding: [String] = []
        var number = 0
        while colliding.count < 4 {
            let code = "C\(number)"
            number += 1
            let bucket = SQLiteViewChains.bucket(ofHash: SQLiteViewChains.hash(S.token(code)!))
            if let other = byBucket.removeValue(forKey: bucket) { colliding += [other, code] } else { byBucket[bucket] = code }
        }
        return colliding + ["D1", "D2"]
    }()

    /// Views of `codes` on two sites and two rules, some not served with 200, at times spread over
    /// 20 days and written out of time order, so views are spliced into their chains.
    static func views(count: Int, seed: UInt64) -> [LogRecord] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            S.view(
                codes[Int(random.next() % UInt64(codes.count))], at: S.base + Int64(random.next() % UInt64(20 * S.day)),
                site: random.next() % 4 == 0 ? "awful" : "rowhni", rule: random.next() % 3 == 0 ? "thread" : "addfriend",
                status: random.next() % 10 == 0 ? 404 : 200)
        }
    }

    static func readViews(_ connection: SQLiteConnection) throws -> [View] {
        var views: [View] = []
        try connection.query("SELECT id, ts_ms, secret, site, rule, kind, status FROM hits", []) { row in
            views.append(
                View(
                    id: row[0].integer!, time: row[1].integer!, secret: row[2].text, site: row[3].text, rule: row[4].text,
                    isPairable: row[5].text == "fallback" && row[6].integer == 200))
        }
        return views
    }

    /// The latest view of the code, site and rule at most the pairing window before `time`.
    static func searched(_ views: [View], secret: String, time: Int64, site: String, rule: String) -> Int64? {
        views.filter {
            $0.isPairable && $0.secret == secret && $0.site == site && $0.rule == rule
                && $0.time >= time - FunnelRow.pairingWindowMilliseconds && $0.time <= time
        }
        .max { ($0.time, $0.id) < ($1.time, $1.id) }?.id
    }

    /// The pairing's own SQL (`OpenCrediting.latestView`) for an open of `secret` at `time`.
    static func paired(_ connection: SQLiteConnection, secret: String, time: Int64, site: String, rule: String) throws -> Int64? {
        let sql = """
            SELECT \(OpenCrediting.latestView(SQLiteDialect()))
            FROM (SELECT 0 AS id, ?1 AS secret, ?2 AS ts_ms, ?3 AS site, ?4 AS rule, NULL AS view_token) AS opened
            """
        return try connection.queryInteger(sql, [.text(secret), .integer(time), .text(site), .text(rule)])
    }

    /// Asks for `count` opens at random and compares each answer with the search.
    static func compare(_ connection: SQLiteConnection, opens count: Int, seed: UInt64) throws {
        let views = try readViews(connection)
        var random = SeededGenerator(seed: seed)
        var found = 0
        for _ in 0..<count {
            let secret = S.token(codes[Int(random.next() % UInt64(codes.count))])!
            let time = S.base + Int64(random.next() % UInt64(30 * S.day))
            let site = random.next() % 4 == 0 ? "awful" : "rowhni"
            let rule = random.next() % 3 == 0 ? "thread" : "addfriend"
            let expected = searched(views, secret: secret, time: time, site: site, rule: rule)
            #expect(try paired(connection, secret: secret, time: time, site: site, rule: rule) == expected, "\(secret) at \(time)")
            if expected != nil { found += 1 }
        }
        // The comparison means something only if many opens have a view.
        #expect(found > count / 3, "\(found) of \(count)")
    }

    @Test("an open's latest view of its code through the chains is the one a search of every view finds")
    func chainsMatchASearch() throws {
        let fixture = try LogFixture()
        // Three batches written out of time order, each spliced into chains the last one made.
        for seed in 1...3 as ClosedRange<UInt64> { try fixture.write(Self.views(count: 200, seed: seed)) }
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM view_chain") == Int64(try Self.readViews(connection).filter(\.isPairable).count))
        try Self.compare(connection, opens: 400, seed: 7)
    }

    @Test("views written by SQL alone are chained by the next writer, and retention leaves chains whole")
    func sqlRowsAndRetention() throws {
        let fixture = try LogFixture()
        try fixture.write(Self.views(count: 150, seed: 4))
        // Rows loaded with plain SQL, as a bulk load would, after the writer chained its own.
        let loader = try SQLiteConnection(path: fixture.databasePath)
        try loader.execute(
            """
            INSERT INTO hits (ts_ms, site, host, method, path, kind, rule, status, duration_us, secret)
            SELECT ts_ms - 3600000, site, host, method, path, kind, rule, status, duration_us, secret FROM hits WHERE kind = 'fallback'
            """)
        let reader = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        let chained = "SELECT COUNT(*) FROM view_chain"
        let pairable = Int64(try Self.readViews(reader).filter(\.isPairable).count)
        #expect(try reader.queryInteger(chained) == pairable / 2)
        _ = try Self.paired(reader, secret: S.token("D1")!, time: S.base, site: "rowhni", rule: "addfriend")  // loads the chains
        try fixture.write([S.open("D1", at: S.base)])
        // The next writer chained the SQL rows; the reader takes in the chains' new rows on its next lookup.
        #expect(try reader.queryInteger(chained) == pairable)
        try Self.compare(reader, opens: 300, seed: 8)

        // Retention (20 days before now, well after the first views) deletes views at the old end
        // of every chain; the chains still give the search's answers.
        let before = try Self.readViews(reader).count
        try fixture.writer(retentionDays: 20).stop()
        let after = try Self.readViews(reader)
        #expect(after.count < before && after.count > 0, "\(before) → \(after.count)")
        #expect(try reader.queryInteger("SELECT COUNT(*) FROM view_chain") == Int64(after.filter(\.isPairable).count))
        try Self.compare(reader, opens: 300, seed: 9)
    }

    @Test("after a rolled-back batch the chains are read again, not left naming rows that are gone")
    func rollback() throws {
        let fixture = try LogFixture()
        try fixture.write([S.view("D1", at: S.base)])
        let connection = try SQLiteConnection(path: fixture.databasePath)
        let chains = connection.viewChains
        let secret = S.token("D1")!
        func latest() throws -> Int64? { try chains.latestView(secret: secret, time: S.base + S.hour, site: "rowhni", rule: "addfriend") }
        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try connection.transaction(.immediate) {
                try connection.execute(
                    "INSERT INTO hits (ts_ms, site, host, method, path, kind, rule, status, duration_us, secret) SELECT ts_ms + 1000, site, host, method, path, kind, rule, status, duration_us, secret FROM hits"
                )
                try chains.extend()
                #expect(try latest() == 2)
                throw Abandoned()
            }
        }
        // The rollback made the chains read their heads again: not row 2, which it took away.
        #expect(try latest() == 1)
        #expect(try Self.paired(connection, secret: secret, time: S.base + S.hour, site: "rowhni", rule: "addfriend") == 1)
    }
}
