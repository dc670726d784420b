import Foundation

/// Counts a rebuild's chunks into full-family hour rows on connections and threads of their own,
/// up to `ahead` chunks before the writer needs them. Grouping every hit of a chunk (a sort on
/// eleven columns) is most of a rebuild's work, more than the writer's deletes, pairing and
/// inserts together; so two threads count alternate chunks while the writer writes, and a rebuild
/// keeps two cores busy. Chunks are handed over in order and at most `ahead` are counted ahead, so
/// memory stays flat however long the log is. A chunk that cannot be counted (the database cannot
/// be opened a second time, say) is handed over as `nil`, and the writer counts it itself.
///
/// `@unchecked Sendable`: the hand-off state is only touched with `condition` locked.
final class ChunkCounter: @unchecked Sendable {
    private let condition = NSCondition()
    private var ready: [Int: ChunkCount] = [:]
    private var uncounted: Set<Int> = []
    private var nextToClaim = 0
    private var writerAt = 0
    private var runningThreads: Int
    private var cancelled = false
    private let chunkCount: Int
    private let ahead: Int

    /// Starts counting `chunks` of the hits of `database` on `threads` threads; `afterCounting`
    /// (for tests) runs on the counting thread after each chunk is counted and before the writer
    /// can have it.
    init(
        database: any LogDatabase, chunks: [RollupChunk], threads: Int = 2, ahead: Int = 3,
        afterCounting: (@Sendable (Int) -> Void)? = nil
    ) {
        chunkCount = chunks.count
        self.ahead = max(1, ahead)
        runningThreads = max(1, threads)
        for number in 1...runningThreads {
            let thread = Thread { [self] in
                work(database: database, chunks: chunks, afterCounting: afterCounting)
            }
            thread.name = "linkhost-rollup-count-\(number)"
            thread.start()
        }
    }

    /// The counts of chunk `index` (chunks are taken in order), waiting for them; `nil` when the
    /// chunk could not be counted or counting was stopped.
    func take(_ index: Int) -> ChunkCount? {
        condition.lock()
        defer { condition.unlock() }
        writerAt = index
        condition.broadcast()
        while ready[index] == nil && !uncounted.contains(index) && runningThreads > 0 { condition.wait() }
        return ready.removeValue(forKey: index)
    }

    /// Stops counting and waits until every thread is done with the database.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        condition.broadcast()
        while runningThreads > 0 { condition.wait() }
    }

    /// One thread's loop: claims the next chunk within `ahead` of the writer, counts it, hands it over.
    private func work(database: any LogDatabase, chunks: [RollupChunk], afterCounting: (@Sendable (Int) -> Void)?) {
        defer {
            condition.lock()
            runningThreads -= 1
            condition.broadcast()
            condition.unlock()
        }
        guard let connection = try? database.openConnection(readOnly: true) else { return }
        while true {
            condition.lock()
            while !cancelled && nextToClaim < chunkCount && nextToClaim - writerAt >= ahead { condition.wait() }
            guard !cancelled, nextToClaim < chunkCount else {
                condition.unlock()
                return
            }
            let index = nextToClaim
            nextToClaim += 1
            condition.unlock()
            let counted = try? Self.count(chunks[index], on: connection)
            if counted != nil { afterCounting?(index) }
            condition.lock()
            if let counted { ready[index] = counted } else { uncounted.insert(index) }
            condition.broadcast()
            condition.unlock()
            // A connection that failed once is not trusted with more; the other thread, or the writer, goes on.
            if counted == nil { return }
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

/// A chunk's hits counted into rows of the full family's hourly table, and the fingerprint of the
/// hits they were counted from (the writer writes them only if it sees the same hits).
struct ChunkCount: Sendable {
    var fullHours: [RollupKey: Int64]
    var fingerprint: HitFingerprint

    /// Adds one result row: the bucket, the full family's columns, then the group's fingerprint
    /// (`HitFingerprint.selectList`, whose first part is the group's count).
    mutating func add(row: [SQLValue]) {
        let columns = RollupTableSet.all.columns.count
        let group = HitFingerprint(row: row[(columns + 1)...])
        guard let bucket = row[0].integer, group.rows > 0 else { return }
        fullHours[RollupKey(bucketStart: bucket, values: Array(row[1...columns])), default: 0] += group.rows
        fingerprint = fingerprint.combined(with: group)
    }
}
