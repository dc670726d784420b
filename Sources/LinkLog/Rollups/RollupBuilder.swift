/// Rebuilds the rollup tables from the hits: after the migration that adds them, and after rows were
/// loaded with plain SQL, which the writer never saw. Works a chunk of days at a time, in time
/// order, so memory stays flat however large the log: each chunk deletes its buckets' rollup rows and
/// counts its hits into them again, in one transaction of its own. A server writing meanwhile stays
/// in step: it adds to the rollups in the same transaction as its rows, and a chunk's transaction
/// counts either all of a batch's rows or none of them. The first chunk is open towards the past and
/// the last towards the future, so rollup rows of times without hits go too, and rows written after
/// the rebuild began are counted.
public struct RollupBuilder {
    private let connection: any LogSQLConnection
    private let chunkDays: Int64

    /// A builder on a connection that may write, counting `chunkDays` days per transaction.
    public init(connection: any LogSQLConnection, chunkDays: Int = 1) {
        self.connection = connection
        self.chunkDays = Int64(max(1, chunkDays))
    }

    /// Rebuilds every rollup table, each chunk in its own transaction; `progress` is told after each
    /// chunk. Returns the hits counted.
    @discardableResult
    public func rebuild(progress: (RollupProgress) -> Void = { _ in }) throws -> Int64 {
        try rebuild(inTransactions: true, progress: progress)
    }

    /// Rebuilds inside a transaction the caller holds (a migration), so the schema change and the
    /// counts are committed together.
    package func rebuildInCurrentTransaction() throws {
        _ = try rebuild(inTransactions: false, progress: { _ in })
    }

    private func rebuild(inTransactions: Bool, progress: (RollupProgress) -> Void) throws -> Int64 {
        let chunks = try chunkBounds()
        var counted: Int64 = 0
        for (index, chunk) in chunks.enumerated() {
            let hits = inTransactions ? try connection.writeTransaction { try rebuildChunk(chunk) } : try rebuildChunk(chunk)
            counted += hits
            progress(RollupProgress(chunksDone: index + 1, totalChunks: chunks.count, hitsCounted: counted))
        }
        return counted
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
