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
public struct RollupBuilder {
    private let connection: any LogSQLConnection
    private let chunkDays: Int64

    /// A builder on a connection that may write, counting `chunkDays` days per transaction.
    public init(connection: any LogSQLConnection, chunkDays: Int = 1) {
        self.connection = connection
        self.chunkDays = Int64(max(1, chunkDays))
    }

    /// Pairs every app open again, then rebuilds every rollup table, each chunk in its own
    /// transaction; `progress` is told after each chunk of either pass. Returns the hits counted.
    @discardableResult
    public func rebuild(progress: (RollupProgress) -> Void = { _ in }) throws -> Int64 {
        let chunks = try chunkBounds()
        let total = chunks.count * 2
        for (index, chunk) in chunks.enumerated() {
            try connection.writeTransaction { try pairOpens(chunk) }
            progress(RollupProgress(chunksDone: index + 1, totalChunks: total, hitsCounted: 0))
        }
        var counted: Int64 = 0
        for (index, chunk) in chunks.enumerated() {
            let work = {
                try rebuildCredits(chunk)
                return try rebuildChunk(chunk)
            }
            counted += try connection.writeTransaction(work)
            progress(RollupProgress(chunksDone: chunks.count + index + 1, totalChunks: total, hitsCounted: counted))
        }
        return counted
    }

    /// Rebuilds the hit rollups (not the credit rollup: the migration that adds the hit rollups runs
    /// before the one that adds pairing) inside a transaction the caller holds, so the schema change
    /// and the counts are committed together.
    package func rebuildHitRollupsInCurrentTransaction() throws {
        for chunk in try chunkBounds() { _ = try rebuildChunk(chunk) }
    }

    /// Pairs every app open again and rebuilds only the credit rollup, inside a transaction the
    /// caller holds (the migration that adds them).
    package func rebuildCreditsInCurrentTransaction() throws {
        let chunks = try chunkBounds()
        for chunk in chunks { try pairOpens(chunk) }
        for chunk in chunks { try rebuildCredits(chunk) }
    }

    /// Sets `view_id` of the app opens in the chunk (by the open's time) to the view they follow.
    private func pairOpens(_ chunk: (since: Int64?, until: Int64?)) throws {
        var arguments = SQLArguments(dialect: connection.dialect)
        let clauses =
            ["kind = 'app_open'", "secret IS NOT NULL"] + SQLCondition.timeClauses(since: chunk.since, until: chunk.until, column: "ts_ms", into: &arguments)
        try connection.execute(
            "UPDATE hits AS opened SET view_id = \(OpenCrediting.latestView(connection.dialect))\(SQLCondition.whereClause(clauses))", arguments.values)
    }

    /// Deletes the chunk's credit rows and counts them again from the paired opens, by the view's
    /// time: the opens are read from the chunk's start to a pairing window past its end (through
    /// their own index, `CROSS JOIN` keeping SQLite from walking every view of the chunk instead).
    private func rebuildCredits(_ chunk: (since: Int64?, until: Int64?)) throws {
        let bucket = RollupTable.bucketColumn
        let count = RollupTable.countColumn
        for grain in RollupGrain.coarsestFirst {
            var arguments = SQLArguments(dialect: connection.dialect)
            let clauses = SQLCondition.timeClauses(since: chunk.since, until: chunk.until, column: bucket, into: &arguments)
            try connection.execute("DELETE FROM \(CreditTable.table(grain))\(SQLCondition.whereClause(clauses))", arguments.values)
        }
        var arguments = SQLArguments(dialect: connection.dialect)
        let window = FunnelRow.pairingWindowMilliseconds
        let openUntil = chunk.until.map { $0 > Int64.max - window ? Int64.max : $0 + window }
        let clauses =
            ["opened.kind = 'app_open'", "opened.secret IS NOT NULL", "seen.id = opened.view_id"]
            + SQLCondition.timeClauses(since: chunk.since, until: openUntil, column: "opened.ts_ms", into: &arguments)
            + SQLCondition.timeClauses(since: chunk.since, until: chunk.until, column: "seen.ts_ms", into: &arguments)
        let columns = CreditTable.columns
        try connection.execute(
            """
            INSERT INTO \(CreditTable.table(.hour)) (\(bucket), \(columns.joined(separator: ", ")), \(count))
            SELECT \(RollupGrain.hour.bucketExpression("seen.ts_ms")), \(columns.map { "seen.\($0)" }.joined(separator: ", ")), COUNT(*)
            FROM hits AS opened CROSS JOIN hits AS seen\(SQLCondition.whereClause(clauses))
            GROUP BY \(Self.positions(columns.count + 1))
            """, arguments.values)
        var dayArguments = SQLArguments(dialect: connection.dialect)
        let dayClauses = SQLCondition.timeClauses(since: chunk.since, until: chunk.until, column: bucket, into: &dayArguments)
        try connection.execute(
            """
            INSERT INTO \(CreditTable.table(.day)) (\(bucket), \(columns.joined(separator: ", ")), \(count))
            SELECT \(RollupGrain.day.bucketExpression(bucket)), \(columns.joined(separator: ", ")), SUM(\(count))
            FROM \(CreditTable.table(.hour))\(SQLCondition.whereClause(dayClauses))
            GROUP BY \(Self.positions(columns.count + 1))
            """, dayArguments.values)
    }

    /// The chunks, each `[since, until)` on day boundaries, the first open below and the last above.
    private func chunkBounds() throws -> [(since: Int64?, until: Int64?)] {
        let span = RollupGrain.coarsest.milliseconds * chunkDays
        guard let oldest = try connection.queryInteger("SELECT MIN(ts_ms) FROM hits"),
            let newest = try connection.queryInteger("SELECT MAX(ts_ms) FROM hits")
        else { return [(nil, nil)] }
        var bounds: [Int64] = []
        var boundary = RollupGrain.coarsest.bucketStart(oldest) + span
        while boundary <= newest {
            bounds.append(boundary)
            boundary += span
        }
        let starts: [Int64?] = [nil] + bounds.map { $0 }
        let ends: [Int64?] = bounds.map { $0 } + [nil]
        return Array(zip(starts, ends))
    }

    /// Deletes the chunk's rollup rows and counts its hits into them again; returns the hits counted.
    private func rebuildChunk(_ chunk: (since: Int64?, until: Int64?)) throws -> Int64 {
        let bucket = RollupTable.bucketColumn
        let count = RollupTable.countColumn
        func bucketClauses(_ arguments: inout SQLArguments) -> String {
            SQLCondition.whereClause(SQLCondition.timeClauses(since: chunk.since, until: chunk.until, column: bucket, into: &arguments))
        }
        for set in RollupTableSet.allCases {
            for grain in RollupGrain.coarsestFirst {
                var arguments = SQLArguments(dialect: connection.dialect)
                try connection.execute("DELETE FROM \(set.table(grain))\(bucketClauses(&arguments))", arguments.values)
            }
        }
        // The full hours from the hits; every other table from hours already built (far fewer rows
        // than the hits): each narrower family's hours from the narrowest family that has its columns,
        // then each family's days from its hours.
        let full = RollupTableSet.all
        var arguments = SQLArguments(dialect: connection.dialect)
        let hitClauses = SQLCondition.timeClauses(since: chunk.since, until: chunk.until, column: "ts_ms", into: &arguments)
        try connection.execute(
            """
            INSERT INTO \(full.table(.hour)) (\(bucket), \(full.columns.joined(separator: ", ")), \(count))
            SELECT \(RollupGrain.hour.bucketExpression("ts_ms")), \(full.columns.joined(separator: ", ")), COUNT(*)
            FROM hits\(SQLCondition.whereClause(hitClauses))
            GROUP BY \(Self.positions(full.columns.count + 1))
            """, arguments.values)
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
