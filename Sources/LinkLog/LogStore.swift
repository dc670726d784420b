internal import CSQLite
import Glibc
import OrderedJSON

/// The log writer's side of the database: one connection in WAL mode with its prepared statements.
/// Used only on the writer thread. Dropped and opened again after any failure, so a replaced file, a
/// re-created folder or a cleared lock is picked up by simply opening afresh.
final class LogStore {
    private let connection: SQLiteConnection
    private let insertHit: SQLiteStatement
    private let addDropped: SQLiteStatement
    private let deleteBefore: SQLiteStatement
    private let fileIdentity: FileIdentity
    private let maximumTextBytes: Int

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
    init(path: String, busyTimeout: Duration, maximumTextBytes: Int) throws {
        try FolderCreator.createParent(of: path)
        connection = try SQLiteConnection(path: path, flags: [.readWrite, .create])
        try connection.setBusyTimeout(busyTimeout)
        // WAL lets readers (the CLI) read while we write; NORMAL is durable across application
        // crashes and loses at most the last commits on power loss, which a hit log can afford.
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        // Keep the WAL file from staying huge after a burst.
        try connection.execute("PRAGMA journal_size_limit = 67108864")
        try LogSchema.migrate(connection)
        insertHit = try connection.prepare(LogSchema.insertHitSQL, persistent: true)
        addDropped = try connection.prepare(
            """
            INSERT INTO meta (key, value) VALUES ('\(LogSchema.droppedRecordsKey)', ?1)
            ON CONFLICT (key) DO UPDATE SET value = value + excluded.value
            """, persistent: true)
        deleteBefore = try connection.prepare("DELETE FROM hits WHERE ts_ms < ?1", persistent: true)
        guard let identity = FileIdentity(path: path) else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "the database file vanished while it was being opened", context: "opening \(path)")
        }
        fileIdentity = identity
        self.maximumTextBytes = maximumTextBytes
    }

    /// Whether the path still names the file we opened. SQLite keeps writing into a file that has
    /// been deleted or replaced without any error, so rows would silently vanish; checking the inode
    /// before each batch turns that into a fault the writer recovers from by reopening.
    var isStillAtItsPath: Bool {
        FileIdentity(path: connection.path) == fileIdentity
    }

    /// Inserts `records` and adds `droppedRecords` to the dropped counter, in one transaction.
    func insert(_ records: [LogRecord], droppedRecords: Int) throws {
        try connection.transaction(.immediate) {
            for record in records {
                defer { insertHit.reset() }
                try bind(record)
                _ = try insertHit.step()
            }
            if droppedRecords > 0 {
                defer { addDropped.reset() }
                try addDropped.bind(integer: Int64(droppedRecords), at: 1)
                _ = try addDropped.step()
            }
        }
    }

    /// Deletes rows older than `cutoffMilliseconds`; returns how many went.
    func deleteRows(olderThan cutoffMilliseconds: Int64) throws -> Int {
        try connection.transaction(.immediate) {
            defer { deleteBefore.reset() }
            try deleteBefore.bind(integer: cutoffMilliseconds, at: 1)
            _ = try deleteBefore.step()
            return connection.changes
        }
    }

    private func bind(_ record: LogRecord) throws {
        try insertHit.bind(integer: record.timestampMilliseconds, at: 1)
        try insertHit.bind(text: capped(record.siteID), at: 2)
        try insertHit.bind(text: capped(record.host), at: 3)
        try insertHit.bind(text: capped(record.method), at: 4)
        try insertHit.bind(text: capped(record.path), at: 5)
        try insertHit.bind(text: capped(record.kind), at: 6)
        try insertHit.bind(text: capped(record.rule), at: 7)
        try insertHit.bind(integer: Int64(record.status), at: 8)
        try insertHit.bind(integer: record.durationMicroseconds, at: 9)
        try insertHit.bind(text: capped(record.utmSource), at: 10)
        try insertHit.bind(text: capped(record.utmMedium), at: 11)
        try insertHit.bind(text: capped(record.utmCampaign), at: 12)
        try insertHit.bind(text: capped(record.utmTerm), at: 13)
        try insertHit.bind(text: capped(record.utmContent), at: 14)
        // Built here rather than in `enqueue`, to keep JSON work off the request path.
        try insertHit.bind(text: parametersJSON(record.trackedParameters), at: 15)
        try insertHit.bind(text: capped(record.referrer), at: 16)
        try insertHit.bind(text: capped(record.userAgent), at: 17)
        try insertHit.bind(text: capped(record.clientClass), at: 18)
        try insertHit.bind(text: capped(record.clientAddress), at: 19)
        try insertHit.bind(text: capped(record.event), at: 20)
        try insertHit.bind(text: capped(record.secretToken), at: 21)
    }

    /// The `params` column: one JSON object of the (capped) names and values in order, the first of
    /// each repeated name kept as `LogRecord.trackedParameters` promises; `nil` for no parameters,
    /// so the column stays NULL rather than holding `{}`.
    private func parametersJSON(_ parameters: [(name: String, value: String)]) -> String? {
        guard !parameters.isEmpty else { return nil }
        var members: [JSONMember] = []
        for parameter in parameters {
            let name = capped(parameter.name) ?? ""
            guard !members.contains(where: { $0.key == name }) else { continue }
            members.append(JSONMember(name, .string(capped(parameter.value) ?? "")))
        }
        return JSONValue.object(members).jsonText(.compact)
    }

    /// `text` cut to `maximumTextBytes` of UTF-8 at a character boundary: request fields are
    /// client-controlled, and one client should not be able to bloat the log with huge values.
    private func capped(_ text: String?) -> String? {
        guard let text, text.utf8.count > maximumTextBytes else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: maximumTextBytes)
        while end > text.startIndex, end.samePosition(in: text.unicodeScalars) == nil {
            end = text.utf8.index(before: end)
        }
        return String(text[..<end])
    }
}
