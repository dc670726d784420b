/// Rebuilds the rollup tables from the hits: after the migration that adds them, and after rows were
/// loaded with plain SQL, which the writer never saw. Works a chunk of days at a time, in time
/// order, so memory stays flat however large the log: each chunk deletes its buckets' rollup rows and
/// counts its hits into them again, in one transaction of its own. A server writing meanwhile stays
/// in step: it adds to the rollups in the same transaction as its rows, and a chunk's transaction
/// counts either all of a batch's rows or none of them. The first chunk is open towards the past and
/// the last towards the future, so rollup rows of times without hits go too, and rows written after
/// the rebuild began are counted.
///
/// The app opens are paired with their views again first (`OpenCrediting`), a chunk of opens at a
/// time, so that each chunk's credit rollup (filed under the view's time) can then count opens of
/// up to a pairing window later.
///
/// Given the database as well, connections on threads of their own (`ChunkCounter`) group the
/// chunks' hits ahead of the writer: the grouping is most of the work, and this keeps two cores busy. The writer uses those counts only if the chunk's hits are still the ones
/// counted (`HitFingerprint`, checked inside its transaction), and counts the chunk itself otherwise.
public struct RollupBuilder {
    private let connection: any LogSQLConnection
    private let chunkDays: Int64
    private let countingDatabase: (any LogDatabase)?
    /// For tests: runs on the counting thread after each chunk is counted.
    package var afterCounting: (@Sendable (Int) -> Void)?

    /// A builder on a connection that may write, counting `chunkDays` days per transaction. With
    /// `countingOn`, the database that connection is on, the hits are grouped on a second
    /// connection in parallel with the writes.
    public init(connection: any LogSQLConnection, chunkDays: Int = 1, countingOn database: (any LogDatabase)? = nil) {
        self.connection = connection
        self.chunkDays = Int64(max(1, chunkDays))
        self.countingDatabase = database
    }

    /// Pairs every app open again, then rebuilds every rollup table, each chunk in its own
    /// transaction; `progress` is told after each chunk of either pass. Returns the hits counted.
    @discardableResult
    public func rebuild(progress: (RollupProgress) -> Void = { _ in }) throws -> Int64 {
        let chunks = try chunkBounds()
        let total = chunks.count * 2
        for (index, chunk) in chunks.enumerated() {
            try connection.writeTransaction { try pairOpens(chunk, assigningCampaigns: true) }
            progress(RollupProgress(chunksDone: index + 1, totalChunks: total, hitsCounted: 0))
        }
        // Pairing sets the paired opens' campaigns (`OpenCampaign`), which the hit rollups count by:
        // the counter starts once every open is paired.
        let counter = countingDatabase.map { ChunkCounter(database: $0, chunks: chunks, afterCounting: afterCounting) }
        defer { counter?.stop() }
        try connection.refreshStatistics(of: HitTable.name)
        var counted: Int64 = 0
        var countedAhead = 0
        for (index, chunk) in chunks.enumerated() {
            // Taken before the transaction: the write lock is not held while the counter works.
            let precounted = counter?.take(index)
            let work = {
                let fingerprint = try fingerprint(chunk)
                try rebuildCredits(chunk, views: fingerprint)
                if let precounted, precounted.fingerprint == fingerprint {
                    try write(precounted, chunk)
                    return (fingerprint.rows, true)
                }
                return (try rebuildChunk(chunk), false)
            }
            let (hits, wasCountedAhead) = try connection.writeTransaction(work)
            counted += hits
            if wasCountedAhead { countedAhead += 1 }
            progress(RollupProgress(chunksDone: chunks.count + index + 1, totalChunks: total, hitsCounted: counted, chunksCountedAhead: countedAhead))
        }
        // Every row is now paired, campaigned and named by this build's rules.
        var arguments = SQLArguments(dialect: connection.dialect)
        _ = try connection.execute("DELETE FROM meta WHERE key = \(arguments.add(.text(HitTable.rebuildPendingThroughKey)))", arguments.values)
        return counted
    }

    /// Rebuilds the hit rollups (not the credit rollup: the migration that adds the hit rollups runs
    /// before the one that adds pairing) inside a transaction the caller holds, so the schema change
    /// and the counts are committed together.
    package func rebuildHitRollupsInCurrentTransaction() throws {
        for chunk in try chunkBounds() { _ = try rebuildChunk(chunk) }
    }

    /// Pairs every app open again and rebuilds only the credit rollup, inside a transaction the
    /// caller holds (the migration that adds them). The opens' campaigns are left to the later
    /// migration that brought the campaign rule, which moves their hit rollup counts with them.
    package func rebuildCreditsInCurrentTransaction() throws {
        let chunks = try chunkBounds()
        for chunk in chunks { try pairOpens(chunk, assigningCampaigns: false) }
        for chunk in chunks { try rebuildCredits(chunk, views: fingerprint(chunk)) }
    }

    /// The fingerprint of the chunk's hits as this connection sees them now.
    private func fingerprint(_ chunk: RollupChunk) throws -> HitFingerprint {
        var arguments = SQLArguments(dialect: connection.dialect)
        let clauses = chunk.clauses(on: "ts_ms", into: &arguments)
        var fingerprint = HitFingerprint.empty
        try connection.query("SELECT \(HitFingerprint.selectList) FROM hits\(SQLCondition.whereClause(clauses))", arguments.values) {
            fingerprint = HitFingerprint(row: $0[...])
        }
        return fingerprint
    }

    /// Sets `view_id` of the app opens in the chunk (by the open's time) to the view they follow.
    /// Only opens whose pairing differs are written: the writer pairs opens as they arrive, so in a
    /// rebuild nearly every open is already right, and an `UPDATE` that sets the value a row holds
    /// still writes the row again (PostgreSQL: a new version of the row and of its index entries,
    /// later vacuumed). Both engines take `UPDATE … FROM` (SQLite since 3.33).
    private func pairOpens(_ chunk: RollupChunk, assigningCampaigns: Bool) throws {
        var arguments = SQLArguments(dialect: connection.dialect)
        let clauses = ["kind = 'app_open'", OpenCrediting.pairable] + chunk.clauses(on: "ts_ms", into: &arguments)
        try connection.execute(
            """
            UPDATE hits SET view_id = pairing.view_id
            FROM (SELECT opened.id AS id, opened.view_id AS was, \(OpenCrediting.latestView(connection.dialect)) AS view_id
                  FROM hits AS opened\(SQLCondition.whereClause(clauses))) AS pairing
            WHERE hits.id = pairing.id AND NOT (\(connection.dialect.isNotDistinct("pairing.was", "pairing.view_id")))
            """, arguments.values)
        // The campaigns by the rule; the hit rollups are counted from the rows afterwards. And the
        // previewers' apps of rows logged before the column (none of the rollups count by it).
        guard assigningCampaigns else { return }
        var previewArguments = SQLArguments(dialect: connection.dialect)
        try PreviewApps.fillMissing(where: chunk.clauses(on: "ts_ms", into: &previewArguments), previewArguments.values, on: connection)
        var campaignArguments = SQLArguments(dialect: connection.dialect)
        let campaign = OpenCampaign(connection: connection)
        let opens = try campaign.opens(where: chunk.clauses(on: "ts_ms", into: &campaignArguments), campaignArguments.values)
        try campaign.assign(opens)
    }

    /// Deletes the chunk's credit rows and counts them again from the paired opens, by the view's
    /// time. The opens are found through their `view_id` index, between the smallest and largest id
    /// of the chunk's hits (`views`): ids grow with time, so that range holds the chunk's views and
    /// few others, where reading the opens by their own time would read a pairing window of them.
    /// `CROSS JOIN` keeps SQLite from walking every view of the chunk instead.
    private func rebuildCredits(_ chunk: RollupChunk, views: HitFingerprint) throws {
        let bucket = RollupTable.bucketColumn
        let count = RollupTable.countColumn
        for grain in RollupGrain.coarsestFirst {
            var arguments = SQLArguments(dialect: connection.dialect)
            let clauses = chunk.clauses(on: bucket, into: &arguments)
            try connection.execute("DELETE FROM \(CreditTable.table(grain))\(SQLCondition.whereClause(clauses))", arguments.values)
        }
        guard let smallest = views.smallestID, let largest = views.largestID else { return }
        var arguments = SQLArguments(dialect: connection.dialect)
        let clauses =
            [
                "opened.view_id >= \(arguments.add(.integer(smallest)))", "opened.view_id <= \(arguments.add(.integer(largest)))",
                "opened.kind = 'app_open'", "seen.id = opened.view_id",
            ] + chunk.clauses(on: "seen.ts_ms", into: &arguments)
        let columns = CreditTable.columns
        try connection.execute(
            """
            INSERT INTO \(CreditTable.table(.hour)) (\(bucket), \(columns.joined(separator: ", ")), \(count))
            SELECT \(RollupGrain.hour.bucketExpression("seen.ts_ms")), \(columns.map { $0 == "event" ? "opened.event" : "seen.\($0)" }.joined(separator: ", ")), COUNT(*)
            FROM hits AS opened CROSS JOIN hits AS seen\(SQLCondition.whereClause(clauses))
            GROUP BY \(Self.positions(columns.count + 1))
            """, arguments.values)
        var dayArguments = SQLArguments(dialect: connection.dialect)
        let dayClauses = chunk.clauses(on: bucket, into: &dayArguments)
        try connection.execute(
            """
            INSERT INTO \(CreditTable.table(.day)) (\(bucket), \(columns.joined(separator: ", ")), \(count))
            SELECT \(RollupGrain.day.bucketExpression(bucket)), \(columns.joined(separator: ", ")), SUM(\(count))
            FROM \(CreditTable.table(.hour))\(SQLCondition.whereClause(dayClauses))
            GROUP BY \(Self.positions(columns.count + 1))
            """, dayArguments.values)
    }

    /// The chunks, each `[since, until)` on day boundaries, the first open below and the last above.
    private func chunkBounds() throws -> [RollupChunk] {
        let span = RollupGrain.coarsest.milliseconds * chunkDays
        guard let oldest = try connection.queryInteger("SELECT MIN(ts_ms) FROM hits"),
            let newest = try connection.queryInteger("SELECT MAX(ts_ms) FROM hits")
        else { return [RollupChunk(since: nil, until: nil)] }
        var bounds: [Int64] = []
        var boundary = RollupGrain.coarsest.bucketStart(oldest) + span
        while boundary <= newest {
            bounds.append(boundary)
            boundary += span
        }
        let starts: [Int64?] = [nil] + bounds.map { $0 }
        let ends: [Int64?] = bounds.map { $0 } + [nil]
        return zip(starts, ends).map { RollupChunk(since: $0, until: $1) }
    }

    /// The full family's hour rows of the hits that match `clauses`: the bucket, the columns, then
    /// `aggregates` (the counter's fingerprint, or the count the SQL rebuild inserts).
    static func fullHourSelect(aggregates: String, _ clauses: [String]) -> String {
        let full = RollupTableSet.all
        return """
            SELECT \(RollupGrain.hour.bucketExpression("ts_ms")), \(full.columns.joined(separator: ", ")), \(aggregates)
            FROM hits\(SQLCondition.whereClause(clauses))
            GROUP BY \(positions(full.columns.count + 1))
            """
    }

    /// Deletes the chunk's rows of every hit rollup table.
    private func deleteHitRollups(_ chunk: RollupChunk) throws {
        for set in RollupTableSet.allCases {
            for grain in RollupGrain.coarsestFirst {
                var arguments = SQLArguments(dialect: connection.dialect)
                let clauses = chunk.clauses(on: RollupTable.bucketColumn, into: &arguments)
                try connection.execute("DELETE FROM \(set.table(grain))\(SQLCondition.whereClause(clauses))", arguments.values)
            }
        }
    }

    /// Replaces the chunk's hit rollup rows with `counted`, every family's hours and days made from
    /// its full hours in the process (a few thousand rows a day).
    private func write(_ counted: ChunkCount, _ chunk: RollupChunk) throws {
        try deleteHitRollups(chunk)
        for (set, grain, counts) in RollupTable.counts(fromFullHours: counted.fullHours) {
            try insert(counts, into: set.table(grain), columns: set.columns)
        }
    }

    /// Inserts rollup rows (`insertRows`: the engine's fastest way).
    private func insert(_ counts: [RollupKey: Int64], into table: String, columns: [String]) throws {
        let rows = counts.map { key, count in [SQLValue.integer(key.bucketStart)] + key.values + [.integer(count)] }
        try connection.insertRows(into: table, columns: [RollupTable.bucketColumn] + columns + [RollupTable.countColumn], rows: rows)
    }

    /// Deletes the chunk's rollup rows and counts its hits into them again; returns the hits counted.
    private func rebuildChunk(_ chunk: RollupChunk) throws -> Int64 {
        let bucket = RollupTable.bucketColumn
        let count = RollupTable.countColumn
        func bucketClauses(_ arguments: inout SQLArguments) -> String {
            SQLCondition.whereClause(chunk.clauses(on: bucket, into: &arguments))
        }
        try deleteHitRollups(chunk)
        // The full hours from the hits; every other table from hours already built (far fewer rows
        // than the hits): each narrower family's hours from the narrowest family that has its columns,
        // then each family's days from its hours.
        let full = RollupTableSet.all
        var arguments = SQLArguments(dialect: connection.dialect)
        let hitClauses = chunk.clauses(on: "ts_ms", into: &arguments)
        try connection.execute(
            "INSERT INTO \(full.table(.hour)) (\(bucket), \(full.columns.joined(separator: ", ")), \(count))\n"
                + Self.fullHourSelect(aggregates: "COUNT(*)", hitClauses), arguments.values)
        for set in RollupTableSet.allCases {
            let columns = set.columns.joined(separator: ", ")
            var targets: [(table: String, time: String, source: String)] = [(set.table(.day), RollupGrain.day.bucketExpression(bucket), set.table(.hour))]
            if set != full { targets.insert((set.table(.hour), bucket, set.rebuildSource.table(.hour)), at: 0) }
            for target in targets {
                var arguments = SQLArguments(dialect: connection.dialect)
                try connection.execute(
                    """
                    INSERT INTO \(target.table) (\(bucket), \(columns), \(count))
                    SELECT \(target.time), \(columns), SUM(\(count))
                    FROM \(target.source)\(bucketClauses(&arguments))
                    GROUP BY \(Self.positions(set.columns.count + 1))
                    """, arguments.values)
            }
        }
        var countArguments = SQLArguments(dialect: connection.dialect)
        return try connection.queryInteger("SELECT SUM(\(count)) FROM \(full.table(.day))\(bucketClauses(&countArguments))", countArguments.values) ?? 0
    }

    /// `1, 2, …, count`: GROUP BY every selected column but the count.
    private static func positions(_ count: Int) -> String {
        (1...count).map(String.init).joined(separator: ", ")
    }
}

/// How far a rollup rebuild has come, after each chunk of days.
public struct RollupProgress: Sendable, Equatable {
    /// Chunks done, of `totalChunks`.
    public var chunksDone: Int
    /// How many chunks the hits' time span makes.
    public var totalChunks: Int
    /// Hits counted into the rollups so far.
    public var hitsCounted: Int64
    /// Chunks whose counts came from the counting connections (`RollupBuilder(countingOn:)`) rather
    /// than from the writer counting them itself.
    public var chunksCountedAhead: Int = 0
}

/// A stretch of the log a rebuild does in one transaction, `[since, until)` on day boundaries; the
/// first chunk is open towards the past (`since` nil) and the last towards the future (`until` nil).
struct RollupChunk: Sendable, Equatable {
    var since: Int64?
    var until: Int64?

    /// `column >= since AND column < until`, as far as either is set, with the values added to `arguments`.
    func clauses(on column: String, into arguments: inout SQLArguments) -> [String] {
        SQLCondition.timeClauses(since: since, until: until, column: column, into: &arguments)
    }
}
