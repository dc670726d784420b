import LinkLogSQLite
import TestSupport
import Testing

@testable import LinkLog

/// A random log over a few days: every dimension the rollups keep takes a handful of values (NULL
/// among them), times fall anywhere, including on and around hour and day boundaries.
enum RandomLog {
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
    static let start = Sample.baseTime - 2 * day
    static let span = 6 * day

    static let sites: [String?] = ["rowhni", "awful", nil]
    static let hosts = ["rowhni.com", "forums.somethingawful.com", "other.example", ""]
    static let rules: [String?] = ["addfriend", "joingroup", "thread", nil]
    static let kinds = ["fallback", "aasa", "event", "app_open", "bad_link", "not_found", "static"]
    static let statuses = [200, 204, 304, 400, 404]
    static let clients: [String?] = ["ios", "android", "aasa-bot", "bot", nil]
    static let sources: [String?] = ["newsletter", "twitter", "", nil]
    static let media: [String?] = ["email", "social", nil]
    static let campaigns: [String?] = ["spring", "autumn", "zürich", nil]
    static let events: [String?] = ["open-app", "store", "copy", "share", "universal-link", nil]
    /// Invite codes: enough that each is on a few dozen rows, as codes are (the pairing walks a code's rows).
    static let codes: [String?] = (0..<100).map { "C\($0)" } + [nil]

    static func time(_ generator: inout SeededGenerator) -> Int64 {
        switch Int.random(in: 0..<4, using: &generator) {
        // On a boundary, or a millisecond either side of one.
        case 0: start + Int64.random(in: 0..<(span / hour), using: &generator) * hour + Int64.random(in: -1...1, using: &generator)
        default: start + Int64.random(in: 0..<span, using: &generator)
        }
    }

    /// Records of which most repeat one of a few shapes (as most traffic does: the same crawler,
    /// the same campaign), so rollup rows hold many hits each, and the rest are random in every field.
    static func records(count: Int, seed: UInt64) -> [LogRecord] {
        var generator = SeededGenerator(seed: seed)
        let shapes = (0..<3).map { _ in record(&generator) }
        return (0..<count).map { _ in
            guard Int.random(in: 0..<10, using: &generator) < 6 else { return record(&generator) }
            var repeated = shapes.randomElement(using: &generator)!
            repeated.timestampMilliseconds = time(&generator)
            // Each person's own code, as on real pages (the rollups do not keep it).
            repeated.secretToken = FunnelSample.token(codes.randomElement(using: &generator)!)
            return repeated
        }
    }

    private static func record(_ generator: inout SeededGenerator) -> LogRecord {
        Sample.record(
            at: time(&generator), site: sites.randomElement(using: &generator)!, host: hosts.randomElement(using: &generator)!,
            kind: kinds.randomElement(using: &generator)!, rule: rules.randomElement(using: &generator)!,
            status: statuses.randomElement(using: &generator)!, utmSource: sources.randomElement(using: &generator)!,
            utmMedium: media.randomElement(using: &generator)!, utmCampaign: campaigns.randomElement(using: &generator)!,
            clientClass: clients.randomElement(using: &generator)!, event: events.randomElement(using: &generator)!,
            secretToken: FunnelSample.token(codes.randomElement(using: &generator)!))
    }

    /// `count` codes each viewed on one day (every other one on a second day too, under another
    /// campaign) and opened in the app two days after the first view; every fourth open is written
    /// before its views, as after a spool replay. 2.5 rows per code.
    static func pairedCodes(_ count: Int) -> [LogRecord] {
        (0..<count).flatMap { code -> [LogRecord] in
            let time = start + Int64(code) * 7 * hour
            let views =
                [FunnelSample.view("P\(code)", at: time, campaign: "c\(code % 3)")]
                + (code % 2 == 0 ? [FunnelSample.view("P\(code)", at: time + day + 1, campaign: "d\(code % 5)")] : [])
            let open = FunnelSample.open("P\(code)", at: time + 2 * day)
            return code % 4 == 0 ? [open] + views : views + [open]
        }
    }

    /// `count` views that each handed out a token (from an in-app browser and a referrer, or not),
    /// each opened with its token a few minutes or days later by another way in; every fourth
    /// token is opened a second time (a copied link passed on), every sixth open is written before
    /// its view, and every fifth view's open reports a token no view has. 2.25 rows per view.
    static func pairedTokens(_ count: Int) -> [LogRecord] {
        let apps: [String?] = ["instagram", nil, "facebook"]
        let referrers: [String?] = ["l.instagram.com", nil, "t.co"]
        let ways: [String?] = ["custom-scheme", "pasteboard", "install-referrer", "universal-link", nil]
        return (0..<count).flatMap { index -> [LogRecord] in
            let token = "viewtoken" + String(repeating: "0", count: 7 - String(index).count) + String(index)
            let time = start + Int64(index) * 5 * hour + 17
            let view = TokenSample.view(
                token, at: time, site: index % 7 == 0 ? "awful" : "rowhni", rule: index % 7 == 0 ? "thread" : "addfriend",
                campaign: "t\(index % 3)", inApp: apps[index % 3], referrerHost: referrers[index % 3])
            let reported = index % 5 == 4 ? "nosuchviewtoken0" : token
            let later = index % 2 == 0 ? 3 * 60_000 : Int64(index % 6 + 1) * day
            let open = TokenSample.open(
                reported, at: time + later, source: ways[index % 5], site: view.siteID ?? "rowhni", rule: view.rule ?? "addfriend")
            var records = index % 6 == 0 ? [open, view] : [view, open]
            if index % 4 == 0 {
                records.append(
                    TokenSample.open(token, at: time + later + hour, source: "pasteboard", site: view.siteID ?? "rowhni", rule: view.rule ?? "addfriend"))
            }
            return records
        }
    }

    /// A bound: none, a boundary, near one, or anywhere (sometimes outside the log's span).
    static func bound(_ generator: inout SeededGenerator) -> Int64? {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: nil
        case 1: start - day + Int64.random(in: 0..<(span / day + 2), using: &generator) * day
        case 2: time(&generator)
        default: start - hour + Int64.random(in: 0..<(span + 2 * hour), using: &generator)
        }
    }

    /// A filter with a few random fields set: values in the log, and now and then one that is not.
    static func filter(_ generator: inout SeededGenerator) -> LogFilter {
        var filter = LogFilter(since: bound(&generator), until: bound(&generator))
        func pick(_ values: [String?]) -> String? {
            guard Int.random(in: 0..<4, using: &generator) == 0 else { return nil }
            return Int.random(in: 0..<8, using: &generator) == 0 ? "absent" : values.compactMap { $0 }.randomElement(using: &generator)
        }
        filter.site = pick(sites)
        filter.host = pick(hosts)
        filter.rule = pick(rules)
        filter.kind = pick(kinds)
        filter.utmSource = pick(sources)
        filter.utmMedium = pick(media)
        filter.utmCampaign = pick(campaigns)
        filter.clientClass = pick(clients)
        if Int.random(in: 0..<6, using: &generator) == 0 { filter.limit = Int.random(in: 1...3, using: &generator) }
        return filter
    }
}

@Suite("Rollups")
struct RollupTests {
    typealias R = RandomLog

    @Test("a range is carved into whole days, whole hours and cut hours that cover it exactly")
    func planPieces() {
        let day = RollupGrain.day.bucketStart(Sample.baseTime)  // a midnight
        let pieces = RollupPlan.pieces(since: day - 90 * 60_000, until: day + 2 * R.day + 2 * R.hour + 15 * 60_000)
        #expect(
            pieces == [
                CountPiece(source: .hits, since: day - 90 * 60_000, until: day - R.hour),
                CountPiece(source: .rollup(.hour), since: day - R.hour, until: day),
                CountPiece(source: .rollup(.day), since: day, until: day + 2 * R.day),
                CountPiece(source: .rollup(.hour), since: day + 2 * R.day, until: day + 2 * R.day + 2 * R.hour),
                CountPiece(source: .hits, since: day + 2 * R.day + 2 * R.hour, until: day + 2 * R.day + 2 * R.hour + 15 * 60_000),
            ])
        #expect(RollupPlan.pieces(since: nil, until: nil) == [CountPiece(source: .rollup(.day), since: nil, until: nil)])
        #expect(RollupPlan.pieces(since: day + 5, until: day + 10) == [CountPiece(source: .hits, since: day + 5, until: day + 10)])
        #expect(RollupPlan.pieces(since: day + 10, until: day + 5).isEmpty)

        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2000 {
            let since = R.bound(&generator)
            let until = R.bound(&generator)
            let pieces = RollupPlan.pieces(since: since, until: until)
            if let since, let until, since >= until {
                #expect(pieces.isEmpty)
                continue
            }
            // Contiguous from `since` to `until`, each rollup piece on its grain's boundaries.
            #expect(pieces.first?.since == since && pieces.last?.until == until, "\(String(describing: since)) \(String(describing: until)): \(pieces)")
            for (left, right) in zip(pieces, pieces.dropFirst()) { #expect(left.until != nil && left.until == right.since) }
            for piece in pieces {
                guard case .rollup(let grain) = piece.source else { continue }
                for bound in [piece.since, piece.until].compactMap({ $0 }) { #expect(grain.bucketStart(bound) == bound) }
            }
        }
    }

    @Test("buckets start on their grain's boundary, before 1970 too")
    func buckets() {
        #expect(RollupGrain.hour.bucketStart(R.hour + 1) == R.hour)
        #expect(RollupGrain.hour.bucketStart(R.hour) == R.hour)
        #expect(RollupGrain.hour.bucketStart(-1) == -R.hour)
        #expect(RollupGrain.day.bucketStart(-R.day) == -R.day)
        #expect(RollupGrain.day.firstBucketStart(atOrAfter: 1) == R.day)
        #expect(RollupGrain.day.firstBucketStart(atOrAfter: .max) == nil)
    }

    @Test("statistics, the funnel and limited listings read through the rollups give exactly what the hits give, on random queries and bounds")
    func rollupsAnswerLikeTheHits() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer()
        // Several batches, so rollup rows are added to as well as made.
        for (index, record) in (R.records(count: 4000, seed: 1) + R.pairedTokens(60)).enumerated() {
            writer.enqueue(record)
            if index % 700 == 0 { #expect(writer.drain()) }
        }
        writer.stop()
        let rollups = try fixture.reader()
        let hits = try LogReader(databasePath: fixture.databasePath, usesRollups: false)
        var generator = SeededGenerator(seed: 2)
        var nonEmpty = 0
        var paired = 0
        for round in 0..<300 {
            let filter = R.filter(&generator)
            let dimension = StatsDimension.allCases.randomElement(using: &generator)!
            let expected = try hits.stats(by: dimension, filter)
            #expect(try rollups.stats(by: dimension, filter) == expected, "round \(round): \(dimension) \(filter)")
            if !expected.isEmpty { nonEmpty += 1 }
            let funnelDimension = ([nil] + FunnelDimension.allCases).randomElement(using: &generator)!
            let expectedFunnel = try hits.funnel(by: funnelDimension, filter)
            #expect(try rollups.funnel(by: funnelDimension, filter) == expectedFunnel, "round \(round): \(String(describing: funnelDimension)) \(filter)")
            if expectedFunnel.contains(where: { $0.opensAfterView > 0 }) { paired += 1 }
            // Listings with a limit start where the hourly rollup says enough rows are.
            var listing = filter
            listing.limit = Int.random(in: 1...40, using: &generator)
            #expect(try rollups.rows(listing) == hits.rows(listing), "round \(round): \(listing)")
        }
        // The comparison means something only if most queries found hits, and some funnels paired opens.
        #expect(nonEmpty > 120)
        #expect(paired >= 40)
    }

    @Test("a rebuild gives the rollups the writer kept, and makes rows loaded with plain SQL count")
    func rebuildMatchesTheWriter() throws {
        let fixture = try LogFixture()
        // The random rows, and 40 codes each viewed on one or two days and opened in the app, some
        // opens written before their views (as after a spool replay).
        let records = R.records(count: 1400, seed: 3) + R.pairedCodes(40)
        #expect(records.count == 1500)
        try fixture.write(records)
        let connection = try SQLiteConnection(path: fixture.databasePath)
        // Every table of every family, summed per key.
        func tables() throws -> [[[SQLValue]]] {
            let families =
                RollupTableSet.allCases.flatMap { set in RollupGrain.allCases.map { (set.table($0), set.columns) } }
                + RollupGrain.allCases.map { (CreditTable.table($0), CreditTable.columns) }
            return try families.map { table, dimensions in
                let columns = (["bucket_ms"] + dimensions).joined(separator: ", ")
                let positions = (1...(dimensions.count + 1)).map(String.init).joined(separator: ", ")
                var rows: [[SQLValue]] = []
                // A rebuild makes no row of zero; the writer must not leave one either (HAVING would hide it).
                try connection.query("SELECT \(columns), SUM(hits), MIN(hits) FROM \(table) GROUP BY \(positions) ORDER BY \(positions)", []) {
                    rows.append($0)
                }
                return rows
            }
        }
        let kept = try tables()
        #expect(kept.count == 2 * RollupTableSet.allCases.count + 2 && kept.allSatisfy { $0.count > 20 })
        #expect(kept.allSatisfy { $0.allSatisfy { ($0.last?.integer ?? 0) > 0 } })
        // Every family counts every hit; the credit rollup counts every paired open.
        let paired = try connection.queryInteger("SELECT COUNT(*) FROM hits WHERE view_id IS NOT NULL") ?? 0
        #expect(paired >= 40)
        #expect(kept.dropLast(2).allSatisfy { $0.reduce(0) { $0 + ($1[$1.count - 2].integer ?? 0) } == 1500 })
        #expect(kept.suffix(2).allSatisfy { $0.reduce(0) { $0 + ($1[$1.count - 2].integer ?? 0) } == paired })
        // The pairing the writer kept is the one a rebuild makes.
        func pairs() throws -> [[SQLValue]] {
            var rows: [[SQLValue]] = []
            try connection.query("SELECT id, view_id FROM hits WHERE view_id IS NOT NULL ORDER BY id", []) { rows.append($0) }
            return rows
        }
        let keptPairs = try pairs()
        // Most hits share a rollup row with others, or the comparisons below would prove little.
        #expect(try connection.queryInteger("SELECT MAX(hits) FROM hits_hourly") ?? 0 >= 5)

        // Rows loaded behind the writer's back: the rollups do not know them until a rebuild.
        try connection.execute(
            """
            INSERT INTO hits (ts_ms, site, host, method, path, kind, rule, status, duration_us, utm_campaign)
            SELECT ts_ms + 7, site, host, method, path, kind, rule, status, duration_us, 'bulk' FROM hits WHERE id % 3 = 0
            """)
        let bulk = LogFilter(utmCampaign: "bulk")
        #expect(try fixture.reader().stats(by: .kind, bulk).isEmpty)
        var progress: [RollupProgress] = []
        let counted = try RollupBuilder(connection: connection).rebuild { progress.append($0) }
        #expect(counted == 2000)
        #expect(progress.count == progress.last?.totalChunks && progress.count >= 6, "\(progress)")
        #expect(try fixture.reader().stats(by: .kind, bulk) == LogReader(databasePath: fixture.databasePath, usesRollups: false).stats(by: .kind, bulk))

        try connection.execute("DELETE FROM hits WHERE utm_campaign = 'bulk'")
        try connection.execute("UPDATE hits SET view_id = NULL")
        try RollupBuilder(connection: connection, chunkDays: 2).rebuild()
        #expect(try tables() == kept)
        #expect(try pairs() == keptPairs)

        // Counted on other connections while the first writes, into emptied tables: the same
        // tables, and every chunk's counts came from them.
        try emptyRollups(connection)
        try connection.execute("UPDATE hits SET view_id = NULL")
        progress = []
        let database = SQLiteLogDatabase(path: fixture.databasePath)
        #expect(try RollupBuilder(connection: connection, countingOn: database).rebuild { progress.append($0) } == 1500)
        #expect(try tables() == kept)
        #expect(try pairs() == keptPairs)
        let chunks = (progress.last?.totalChunks ?? 0) / 2
        #expect(chunks >= 3 && progress.last?.chunksCountedAhead == chunks, "\(progress)")
    }

    @Test("hits added to a chunk after another connection counted it are counted by the writer itself")
    func rebuildCountsAChangedChunkItself() throws {
        let fixture = try LogFixture()
        try fixture.write(R.records(count: 900, seed: 11) + R.pairedCodes(20))
        let connection = try SQLiteConnection(path: fixture.databasePath)
        // The late row's insert and the rebuild's transactions take turns at the write lock.
        try connection.setBusyTimeout(.seconds(30))
        let oldest = try #require(try connection.queryInteger("SELECT MIN(ts_ms) FROM hits"))
        let path = fixture.databasePath
        // After the counter has counted the second chunk (the first whole day), a row lands in it.
        var builder = RollupBuilder(connection: connection, countingOn: SQLiteLogDatabase(path: path))
        let late = RollupGrain.day.bucketStart(oldest) + R.day + 5 * R.hour
        builder.afterCounting = { index in
            guard index == 1, let other = try? SQLiteConnection(path: path) else { return }
            try? other.setBusyTimeout(.seconds(30))
            try? other.execute(
                """
                INSERT INTO hits (ts_ms, site, host, method, path, kind, rule, status, duration_us, utm_campaign)
                VALUES (\(late), 'rowhni', 'rowhni.com', 'GET', '/late', 'fallback', 'profile', 200, 1, 'late')
                """)
        }
        try emptyRollups(connection)
        let written = try #require(try connection.queryInteger("SELECT COUNT(*) FROM hits"))
        var progress: [RollupProgress] = []
        #expect(try builder.rebuild { progress.append($0) } == written + 1)
        let chunks = (progress.last?.totalChunks ?? 0) / 2
        #expect(chunks >= 3 && progress.last?.chunksCountedAhead == chunks - 1, "\(progress)")
        let lateHits = LogFilter(utmCampaign: "late")
        #expect(try fixture.reader().stats(by: .kind, lateHits) == [StatsRow(key: "fallback", hits: 1)])
        #expect(try fixture.reader().stats(by: .day) == LogReader(databasePath: path, usesRollups: false).stats(by: .day))
    }

    /// Deletes every row of every rollup table, so a rebuild is seen to write them all.
    private func emptyRollups(_ connection: SQLiteConnection) throws {
        let tables = RollupTableSet.allCases.flatMap { set in RollupGrain.allCases.map(set.table) } + RollupGrain.allCases.map(CreditTable.table)
        for table in tables { try connection.execute("DELETE FROM \(table)") }
    }

    @Test("retention deletes whole days from the hits and the rollups alike")
    func retentionKeepsThemInStep() throws {
        let fixture = try LogFixture()
        let now = LogRecord.currentTimeMilliseconds()
        try fixture.write((0..<200).map { Sample.record(at: now - Int64($0) * 3 * R.hour, kind: $0 % 2 == 0 ? "aasa" : "fallback") })
        let writer = try fixture.writer(retentionDays: 10)
        #expect(writer.status.retentionDeletedRows > 0)
        writer.stop()
        let cutoff = RollupGrain.day.bucketStart(now - 10 * R.day)
        let remaining = try fixture.reader().rows()
        #expect(remaining.allSatisfy { $0.timestampMilliseconds >= cutoff })
        #expect(remaining.count == (0..<200).filter { now - Int64($0) * 3 * R.hour >= cutoff }.count)
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM hits_hourly WHERE bucket_ms < \(cutoff)") == 0)
        #expect(try connection.queryInteger("SELECT SUM(hits) FROM hits_daily") == Int64(remaining.count))
        #expect(try fixture.reader().stats(by: .kind) == LogReader(databasePath: fixture.databasePath, usesRollups: false).stats(by: .kind))
    }
}
