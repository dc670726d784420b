import Foundation
import LinkLog

/// A local queue of log batches in a SQLite file, for when the real log database cannot be
/// reached: batches go in with their sequence number and come out oldest first, and survive a
/// restart. Used on the writer thread only.
public final class SQLiteSpool {
    private let connection: SQLiteConnection
    /// This spool's identity, made when the file is; batch marks in the log database are kept per
    /// spool (`LogBatchMarker`), so two instances' spools never mistake each other's batches.
    public let identifier: String
    /// The file.
    public var path: String { connection.path }

    /// Sequence numbers are handed out from blocks reserved in the file, so they keep growing across
    /// restarts without a write per batch.
    private var nextSequence: Int64 = 0
    private var reservedUpTo: Int64 = 0
    private static let reservationBlock: Int64 = 100_000

    /// Opens (creating folder and file as needed) the spool at `path`.
    public init(path: String) throws {
        try FolderCreator.createParent(of: path)
        connection = try SQLiteConnection(path: path, flags: [.readWrite, .create])
        try connection.setBusyTimeout(.seconds(5))
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        let columns = HitTable.recordColumns.map { "\($0.name) \(Self.type(of: $0))" }
        let connection = self.connection
        identifier = try connection.transaction(.immediate) {
            try connection.execute(
                """
                CREATE TABLE IF NOT EXISTS spool_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS spool_batches (sequence INTEGER PRIMARY KEY, dropped INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS spool_rows (position INTEGER PRIMARY KEY, sequence INTEGER NOT NULL, \(columns.joined(separator: ", ")));
                CREATE INDEX IF NOT EXISTS spool_rows_sequence ON spool_rows (sequence);
                """)
            // A spool left by a build with fewer hit columns gains the new ones (NULL in its rows),
            // so the batches it holds are replayed like any other.
            var present: Set<String> = []
            try connection.query("SELECT name FROM pragma_table_info('spool_rows')", []) { present.insert($0[0].text ?? "") }
            for column in HitTable.recordColumns where !present.contains(column.name) {
                try connection.execute("ALTER TABLE spool_rows ADD COLUMN \(column.name) \(Self.type(of: column))")
            }
            if let existing = try connection.queryText("SELECT value FROM spool_meta WHERE key = 'identifier'") { return existing }
            let made = UUID().uuidString.lowercased()
            try connection.execute("INSERT INTO spool_meta (key, value) VALUES ('identifier', ?1)", [.text(made)])
            return made
        }
    }

    /// The next batch number: larger than any handed out before, by this process or an earlier one.
    public func takeSequence() throws -> Int64 {
        if nextSequence >= reservedUpTo {
            try connection.transaction(.immediate) {
                let reserved = Int64(try connection.queryText("SELECT value FROM spool_meta WHERE key = 'reserved'") ?? "0") ?? 0
                nextSequence = reserved + 1
                reservedUpTo = reserved + Self.reservationBlock
                try connection.execute(
                    "INSERT INTO spool_meta (key, value) VALUES ('reserved', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [.text(String(reservedUpTo))])
            }
        }
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// A spooled column's type: the values are only kept and read back, so no constraints.
    private static func type(of column: HitTable.Column) -> String {
        column.type == .text ? "TEXT" : "INTEGER"
    }

    /// Keeps a batch.
    public func append(_ records: [LogRecord], droppedRecords: Int, sequence: Int64) throws {
        let columns = HitTable.recordColumnNames
        try connection.transaction(.immediate) {
            try connection.execute("INSERT INTO spool_batches (sequence, dropped) VALUES (?1, ?2)", [.integer(sequence), .integer(Int64(droppedRecords))])
            let insert = try connection.prepare(
                "INSERT INTO spool_rows (sequence, \(columns.joined(separator: ", "))) VALUES (?1, \(columns.indices.map { "?\($0 + 2)" }.joined(separator: ", ")))"
            )
            for record in records {
                defer { insert.reset() }
                try insert.bind(integer: sequence, at: 1)
                for (offset, value) in record.columnValues.enumerated() { try insert.bind(value, at: offset + 2) }
                _ = try insert.step()
            }
        }
    }

    /// The oldest batch kept, `nil` when the spool is empty.
    public func oldestBatch() throws -> (sequence: Int64, records: [LogRecord], droppedRecords: Int)? {
        var batch: (Int64, Int)?
        try connection.query("SELECT sequence, dropped FROM spool_batches ORDER BY sequence LIMIT 1", []) { row in
            batch = (row[0].integer ?? 0, Int(row[1].integer ?? 0))
        }
        guard let (sequence, dropped) = batch else { return nil }
        var records: [LogRecord] = []
        try connection.query(
            "SELECT \(HitTable.recordColumnNames.joined(separator: ", ")) FROM spool_rows WHERE sequence = ?1 ORDER BY position",
            [.integer(sequence)]
        ) { records.append(LogRecord(columnValues: $0)) }
        return (sequence, records, dropped)
    }

    /// Forgets a batch (once it is in the log database).
    public func remove(_ sequence: Int64) throws {
        try connection.transaction(.immediate) {
            try connection.execute("DELETE FROM spool_rows WHERE sequence = ?1", [.integer(sequence)])
            try connection.execute("DELETE FROM spool_batches WHERE sequence = ?1", [.integer(sequence)])
        }
    }

    /// Whether no batch is kept.
    public func isEmpty() throws -> Bool {
        try connection.queryInteger("SELECT COUNT(*) FROM (SELECT 1 FROM spool_batches LIMIT 1)") == 0
    }

    /// How many rows are kept.
    public func rowCount() throws -> Int {
        Int(try connection.queryInteger("SELECT COUNT(*) FROM spool_rows") ?? 0)
    }
}
