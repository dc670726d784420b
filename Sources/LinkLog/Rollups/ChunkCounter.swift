import Foundation

/// Counts a rebuild's chunks into full-family hour rows on a connection and a thread of its own,
/// up to `ahead` chunks before the writer needs them. Grouping every hit of a chunk (a sort on
/// eleven columns) is most of a rebuild's work; this way it runs on a second core while the writer
/// deletes, pairs and inserts. Chunks are handed over in order and at most `ahead` are held, so
/// memory stays flat however long the log is. When counting fails (the database cannot be opened a
/// second time, say), the writer is told there is nothing for the rest and counts those itself.
///
/// `@unchecked Sendable`: the hand-off state is only touched with `condition` locked.
final class ChunkCounter: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Int: ChunkCount] = [:]
    private var nextToCount = 0
    private var finished = false
    private var cancelled = false
    private let ahead: Int

    /// Starts counting `chunks` of the hits of `database` on a thread of its own; `afterCounting`
    /// (for tests) runs there after each chunk is counted and before the writer can have it.
    init(database: any LogDatabase, chunks: [RollupChunk], ahead: Int = 2, afterCounting: (@Sendable (Int) -> Void)? = nil) {
        self.ahead = max(1, ahead)
        let thread = Thread { [self] in
            count(database: database, chunks: chunks, afterCounting: afterCounting)
        }
        thread.name = "linkhost-rollup-count"
        thread.start()
    }

    /// The counts of chunk `index` (chunks are taken in order), waiting for them; `nil` when
    /// counting failed or was stopped before that chunk.
    func take(_ index: Int) -> ChunkCount? {
        condition.lock()
        defer { condition.unlock() }
        while ready[index] == nil && !(finished && nextToCount <= index) { condition.wait() }
        let count = ready.removeValue(forKey: index)
        condition.broadcast()
        return count
    }

    /// Stops counting and waits until the thread is done with the database.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        condition.broadcast()
        while !finished { condition.wait() }
    }

    private func count(database: any LogDatabase, chunks: [RollupChunk], afterCounting: (@Sendable (Int) -> Void)?) {
        defer {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        guard let connection = try? database.openConnection(readOnly: true) else { return }
        for (index, chunk) in chunks.enumerated() {
            condition.lock()
            while ready.count >= ahead && !cancelled { condition.wait() }
            let stop = cancelled
            condition.unlock()
            if stop { return }
            guard let counted = try? Self.count(chunk, on: connection) else { return }
            afterCounting?(index)
            condition.lock()
            ready[index] = counted
            nextToCount = index + 1
            condition.broadcast()
            condition.unlock()
        }
    }

    /// One chunk's full-family hour rows, in one statement (one snapshot) with their fingerprint.
    static func count(_ chunk: RollupChunk, on connection: any LogSQLConnection) throws -> ChunkCount {
        var arguments = SQLArguments(dialect: connection.dialect)
        let clauses = chunk.clauses(on: "ts_ms", into: &arguments)
        var counted = ChunkCount(fullHours: [:], fingerprint: .empty)
        try connection.query(RollupBuilder.fullHourSelect(aggregates: HitFingerprint.selectList, clauses), arguments.values) { counted.add(row: $0) }
        return counted
    }
}
