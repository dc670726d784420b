internal import CSQLite
import Glibc
import LinkLog

/// The log writer's side of a SQLite file: one connection in WAL mode with its prepared statements.
/// Used only on the writer thread. Dropped and opened again after any failure, so a replaced file, a
/// re-created folder or a cleared lock is picked up by simply opening afresh.
final class SQLiteLogStore: LogStore {
    private let connection: SQLiteConnection
    private let insertHit: SQLiteStatement
    /// What the insert's parameters hold (`HitTable.recordFields`), by kind of field.
    private let insertFields = InsertFields(HitTable.recordFields)
    private let addDropped: SQLiteStatement
    private let deleteBefore: [SQLiteStatement]
    /// Per rollup table: add to a key's row, and insert the row when there was none to add to.
    private let addToRollup: [String: SQLiteStatement]
    private let insertRollup: [String: SQLiteStatement]
    /// Per rollup table: delete a key's row once its count is back to zero (an open moved away).
    private let deleteEmptyRow: [String: SQLiteStatement]
    private let fileIdentity: FileIdentity
    /// Where a row's texts are copied for binding (see `SQLiteTextArena`).
    private let textArena: SQLiteTextArena
    /// Copies the WAL into the file on a thread of its own, in place of SQLite's checkpoint in
    /// the commit.
    private let checkpointer: SQLiteCheckpointer
    /// The log's views by code (`SQLiteViewChains`), extended in each batch's transaction.
    private let chains: SQLiteViewChains

    /// The file a path names, by device and inode.
    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Opens (creating folder and file as needed) and migrates the database at `path`.
    init(path: String, options: LogStoreOptions) throws {
        try FolderCreator.createParent(of: path)
        connection = try SQLiteConnection(path: path, flags: [.readWrite, .create])
        try connection.setBusyTimeout(options.busyTimeout)
        // WAL lets readers (the CLI) read while we write; NORMAL is durable across application
        // crashes and loses at most the last commits on power loss, which a hit log can afford.
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        // Keep the WAL file from staying larger than a checkpoint's worth after a burst.
        try connection.execute("PRAGMA journal_size_limit = \(SQLiteCheckpointer.standard.requestFrames * 4096)")
        try SQLiteLogSchema.migrate(connection)
        let chains = connection.viewChains
        // Views written by SQL alone since the last writer (a bulk load) are chained before any row.
        try connection.transaction(.immediate) { try chains.extend() }
        self.chains = chains
        let columns = HitTable.recordColumnNames
        insertHit = try connection.prepare(
            "INSERT INTO hits (\(columns.joined(separator: ", "))) VALUES (\(columns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))",
            persistent: true)
        addDropped = try connection.prepare(
            """
            INSERT INTO meta (key, value) VALUES ('\(HitTable.droppedRecordsKey)', ?1)
            ON CONFLICT (key) DO UPDATE SET value = value + excluded.value
            """, persistent: true)
        var deleteBefore = [
            try connection.prepare("DELETE FROM hits WHERE ts_ms < ?1", persistent: true),
            try connection.prepare("DELETE FROM view_chain WHERE ts_ms < ?1", persistent: true),
        ]
        var addToRollup: [String: SQLiteStatement] = [:]
        var insertRollup: [String: SQLiteStatement] = [:]
        var deleteEmptyRow: [String: SQLiteStatement] = [:]
        let rollupTables =
            RollupTableSet.allCases.flatMap { set in RollupGrain.allCases.map { (set.table($0), set.columns) } }
            + RollupGrain.allCases.map { (CreditTable.table($0), CreditTable.columns) }
        for (table, columns) in rollupTables {
            // `IS`, not `=`: NULL is a value of a dimension like any other. SQLite's indexes serve `IS`.
            let keyMatch = (["bucket_ms = ?2"] + columns.enumerated().map { "\($1) IS ?\($0 + 3)" }).joined(separator: " AND ")
            deleteBefore.append(try connection.prepare("DELETE FROM \(table) WHERE bucket_ms < ?1", persistent: true))
            addToRollup[table] = try connection.prepare("UPDATE \(table) SET hits = hits + ?1 WHERE \(keyMatch)", persistent: true)
            // ?1 is bound and unused, so the key binds like the other statements'.
            deleteEmptyRow[table] = try connection.prepare("DELETE FROM \(table) WHERE hits = 0 AND ?1 IS NOT NULL AND \(keyMatch)", persistent: true)
            let placeholders = (1...(columns.count + 2)).map { "?\($0)" }.joined(separator: ", ")
            insertRollup[table] = try connection.prepare(
                "INSERT INTO \(table) (hits, bucket_ms, \(columns.joined(separator: ", "))) VALUES (\(placeholders))", persistent: true)
        }
        self.deleteEmptyRow = deleteEmptyRow
        self.deleteBefore = deleteBefore
        self.addToRollup = addToRollup
        self.insertRollup = insertRollup
        // Room for every text column of a row at the writer's cap, so no value falls back to a copy.
        textArena = SQLiteTextArena(capacity: options.maximumTextBytes * (columns.count + 1))
        guard let identity = FileIdentity(path: path) else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "the database file vanished while it was being opened", context: "opening \(path)")
        }
        fileIdentity = identity
        // Last: its thread runs until `deinit` stops it, so nothing may throw after it starts.
        checkpointer = try SQLiteCheckpointer(path: path)
        checkpointer.attach(to: connection)
    }

    deinit {
        checkpointer.detach(from: connection)
        checkpointer.stop()
    }

    /// Whether the path still names the file we opened. SQLite keeps writing into a file that has
    /// been deleted or replaced without any error, so rows would silently vanish; checking the inode
    /// before each batch turns that into a fault the writer recovers from by reopening.
    var isStillCurrent: Bool {
        FileIdentity(path: connection.path) == fileIdentity
    }

    func insert(_ records: [LogRecord], droppedRecords: Int, marker: LogBatchMarker?) throws {
        try connection.transaction(.immediate) {
            var paired = OpenCrediting.Inserted()
            var previews = PreviewApps()
            var views: [SQLiteViewChains.View] = []
            var ids: ClosedRange<Int64>?
            try records.withUnsafeBufferPointer { rows in
                for index in rows.indices {
                    defer { insertHit.reset() }
                    let record = rows.baseAddress! + index
                    try bind(record)
                    _ = try insertHit.step()
                    let id = connection.lastInsertedRowID
                    paired.note(record, id: id)
                    if record.pointee.kind == "fallback" {
                        previews.note(clientClass: record.pointee.clientClass, userAgent: record.pointee.userAgent, id: id)
                    }
                    ids = (ids?.lowerBound ?? id)...id
                    if let secret = record.pointee.secretToken, record.pointee.kind == "fallback", record.pointee.status == 200 {
                        views.append((id, record.pointee.timestampMilliseconds, secret))
                    }
                }
            }
            for (set, grain, counts) in RollupTable.counts(of: records) {
                for (key, count) in counts { try addToRollup(set.table(grain), key, count) }
            }
            if let ids { try chains.extend(batch: views, rows: ids) }
            try previews.fill(on: connection)
            let changes = try OpenCrediting(connection: connection).update(for: paired)
            let tables = changes.credits.map { (CreditTable.table($0.grain), $0.changes) } + changes.hits.map { ($0.set.table($0.grain), $0.counts) }
            for (table, changes) in tables {
                for (key, change) in changes {
                    if change > 0 {
                        try addToRollup(table, key, change)
                    } else {
                        // An open left this row, which holds it: only subtract, never make a row.
                        try run(addToRollup[table]!, key, change)
                        try run(deleteEmptyRow[table]!, key, change)
                    }
                }
            }
            if droppedRecords > 0 {
                defer { addDropped.reset() }
                try addDropped.bind(integer: Int64(droppedRecords), at: 1)
                _ = try addDropped.step()
            }
            if let marker {
                try connection.execute(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = MAX(value, excluded.value)",
                    [.text(marker.metaKey), .integer(marker.sequence)])
            }
        }
    }

    /// Syncs the WAL (and the file, which checkpoints write): at `synchronous = NORMAL` a commit is
    /// in the WAL but reaches the disk only at the next checkpoint, so the journal's space for it is
    /// handed back only after this (https://sqlite.org/pragma.html#pragma_synchronous).
    func makeDurable() throws {
        try connection.syncFiles()
    }

    func takeBackupMark() throws -> Int64? {
        let key = SQLValue.text(HitTable.backupTakenKey)
        guard let taken = try connection.queryInteger("SELECT value FROM meta WHERE key = ?1", [key]) else { return nil }
        try connection.execute("DELETE FROM meta WHERE key = ?1", [key])
        return taken
    }

    func markedSequence(_ key: String) throws -> Int64? {
        try connection.queryInteger("SELECT value FROM meta WHERE key = ?1", [.text(LogBatchMarker(key: key, sequence: 0).metaKey)])
    }

    /// Binds the record at `record` to the insert, the values of `HitTable.recordFields` from `?1`,
    /// each read in place: this runs for every hit, and building `LogRecord.columnValues` would copy
    /// every value into an array per row.
    private func bind(_ record: UnsafePointer<LogRecord>) throws {
        textArena.startRow()
        // Indexed rather than iterated: an iterator would hold (and retain) each array, per row.
        for index in insertFields.integers.indices {
            let (parameter, offset) = insertFields.integers[index]
            try insertHit.bind(integer: record.field(at: offset, as: Int64.self).pointee, at: parameter)
        }
        for index in insertFields.ints.indices {
            let (parameter, offset) = insertFields.ints[index]
            try insertHit.bind(integer: Int64(record.field(at: offset, as: Int.self).pointee), at: parameter)
        }
        for index in insertFields.texts.indices {
            let (parameter, offset) = insertFields.texts[index]
            try textArena.bind(record.field(at: offset, as: String.self), to: insertHit, at: parameter)
        }
        for index in insertFields.optionalTexts.indices {
            let (parameter, offset) = insertFields.optionalTexts[index]
            try textArena.bind(record.field(at: offset, as: String?.self), to: insertHit, at: parameter)
        }
        for index in insertFields.others.indices {
            let (parameter, field) = insertFields.others[index]
            try textArena.bind(field.value(in: record).text, to: insertHit, at: parameter)
        }
    }

    /// Adds `count` hits to the rollup row of `key`, making the row when there is none.
    private func addToRollup(_ table: String, _ key: RollupKey, _ count: Int64) throws {
        for statement in [addToRollup[table]!, insertRollup[table]!] {
            try run(statement, key, count)
            if connection.changes > 0 { return }
        }
    }

    /// Runs a statement of the rollup kind: `?1` a count, `?2` the bucket, then the key's values.
    private func run(_ statement: SQLiteStatement, _ key: RollupKey, _ count: Int64) throws {
        defer { statement.reset() }
        try statement.bind(integer: count, at: 1)
        try statement.bind(integer: key.bucketStart, at: 2)
        for (offset, value) in key.values.enumerated() { try statement.bind(value, at: offset + 3) }
        _ = try statement.step()
    }

    func deleteRows(before cutoffMilliseconds: Int64) throws -> Int {
        try connection.transaction(.immediate) {
            var hitsDeleted = 0
            for (index, statement) in deleteBefore.enumerated() {
                defer { statement.reset() }
                try statement.bind(integer: cutoffMilliseconds, at: 1)
                _ = try statement.step()
                if index == 0 { hitsDeleted = connection.changes }
            }
            return hitsDeleted
        }
    }
}

/// The insert's parameters (numbered from 1) sorted by the kind of field that fills them, and where
/// the field is in a record: the binding loops then run without a switch per value.
private struct InsertFields {
    var integers: [(Int, Int)] = []
    var ints: [(Int, Int)] = []
    var texts: [(Int, Int)] = []
    var optionalTexts: [(Int, Int)] = []
    /// The tracked parameters, bound as JSON text.
    var others: [(Int, HitTable.Field)] = []

    init(_ fields: [HitTable.Field]) {
        for (index, field) in fields.enumerated() {
            switch field {
            case .integer(let offset): integers.append((index + 1, offset))
            case .int(let offset): ints.append((index + 1, offset))
            case .text(let offset): texts.append((index + 1, offset))
            case .optionalText(let offset): optionalTexts.append((index + 1, offset))
            default: others.append((index + 1, field))
            }
        }
    }
}
