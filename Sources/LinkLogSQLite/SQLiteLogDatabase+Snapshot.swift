import LinkLog

extension SQLiteLogDatabase: LogSnapshotSource {
    public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// Reads the facts of the moment (the last row id, the journals' positions) and copies the
    /// pages inside one read transaction, which in WAL mode never waits for the writer nor holds
    /// it up (https://sqlite.org/wal.html#concurrency): only the WAL cannot start over meanwhile.
    /// The copy's rows are counted after the transaction ends, on the copy, so the live WAL is held
    /// no longer than the page copy. The copy is left in rollback-journal mode, one file that opens
    /// anywhere; the writer turns WAL on again when it opens a restored copy.
    public func copySnapshot(to copyPath: String, whileHeld: (any LogSQLConnection) throws -> Void) throws -> LogSnapshot {
        let source = try openReader(readOnly: true)
        var copy: SQLiteConnection? = try SQLiteConnection(path: copyPath, flags: [.readWrite, .create])
        // Synced once when done (`finish`): the file is under a temporary name until then.
        try copy?.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        let wal = path + "-wal"
        let walAtStart = FileSync.size(wal)
        let started = ContinuousClock.now
        try source.execute("BEGIN")
        let facts: (lastRowID: Int64?, positions: [String: Int64], taken: Int64, walAtEnd: Int64?)
        do {
            // The first read starts the snapshot that the copy then reads too.
            let lastRowID = try source.queryInteger("SELECT max(id) FROM hits")
            let taken = WallClock.nowMilliseconds()
            var positions: [String: Int64] = [:]
            let prefix = LogBatchMarker.journalMetaKeyPrefix
            try source.query("SELECT key, value FROM meta WHERE substr(key, 1, ?1) = ?2", [.integer(Int64(prefix.utf8.count)), .text(prefix)]) { row in
                if case .text(let key) = row[0], case .integer(let value) = row[1] { positions[String(key.dropFirst(prefix.count))] = value }
            }
            try whileHeld(source)
            try source.copyPages(into: copy!)
            facts = (lastRowID, positions, taken, FileSync.size(wal))
            try source.execute("COMMIT")
        } catch {
            if source.isInTransaction { try? source.execute("ROLLBACK") }
            throw error
        }
        let heldFor = started.duration(to: .now)
        let rows = try Self.finish(copy.take()!, at: copyPath, takenMilliseconds: facts.taken)
        return LogSnapshot(
            rows: rows, lastRowID: facts.lastRowID, journalPositions: facts.positions, takenMilliseconds: facts.taken, heldFor: heldFor,
            walBytesAtStart: walAtStart, walBytesAtEnd: facts.walAtEnd, bytes: FileSync.size(copyPath) ?? 0)
    }

    /// Makes the copy one file whatever the source's mode, marks it for the writer that opens it
    /// restored, counts its rows, closes and syncs it; returns the rows.
    private static func finish(_ copy: consuming SQLiteConnection, at copyPath: String, takenMilliseconds: Int64) throws -> Int64 {
        try copy.execute("PRAGMA journal_mode = DELETE")
        try copy.execute("INSERT INTO meta (key, value) VALUES (?1, ?2)", [.text(HitTable.backupTakenKey), .integer(takenMilliseconds)])
        let rows = try copy.queryInteger("SELECT count(*) FROM hits") ?? 0
        _ = consume copy
        if let failure = FileSync.sync(copyPath) { throw LogError.backupNotWritten(path: copyPath, reason: "cannot sync it: \(failure)") }
        return rows
    }
}
