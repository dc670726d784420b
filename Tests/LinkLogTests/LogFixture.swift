import Foundation
import LinkLog
import LinkLogSQLite
import TestSupport

/// A temporary folder with a log database path in it, and helpers to fill and inspect that database.
final class LogFixture {
    let folder: TemporaryDirectory
    let databasePath: String

    init() throws {
        folder = try TemporaryDirectory("linklog")
        databasePath = folder.path + "/log/hits.sqlite"
    }

    /// Where the fixture's writers keep their journal: in the folder, not beside the database, so a
    /// test may put the database where no folder can be made. One writer at a time per fixture.
    var journalPath: String { folder.path + "/writer.hits-journal" }

    /// A writer with quick retries, so fault tests do not sit through production backoff.
    func writer(
        path: String? = nil,
        journalSizeBytes: UInt64 = 16 << 20,
        journalSyncInterval: Duration = .seconds(1),
        retentionDays: Int = 0,
        retentionInterval: Duration = .seconds(3600),
        busyTimeout: Duration = .seconds(5)
    ) throws -> LogWriter {
        try LogWriter(
            configuration: LogWriterConfiguration(
                database: SQLiteLogDatabase(path: path ?? databasePath),
                journalPath: journalPath,
                journalSizeBytes: journalSizeBytes,
                journalSyncInterval: journalSyncInterval,
                retentionDays: retentionDays,
                retentionInterval: retentionInterval,
                initialRetryDelay: .milliseconds(20),
                maximumRetryDelay: .milliseconds(100),
                busyTimeout: busyTimeout
            ))
    }

    /// Writes `records` through a writer that is then stopped.
    func write(_ records: [LogRecord]) throws {
        let writer = try writer()
        for record in records { _ = writer.enqueue(record) }
        writer.stop()
    }

    func reader() throws -> LogReader {
        try LogReader(databasePath: databasePath)
    }

    /// The raw bytes of the database and its -wal and -shm files (those that exist).
    func rawDatabaseBytes() -> [UInt8] {
        ["", "-wal", "-shm"].flatMap { suffix in
            (FileManager.default.contents(atPath: databasePath + suffix)).map { Array($0) } ?? []
        }
    }
}

/// Records with sensible defaults, so each test states only what it is about.
enum Sample {
    /// 2026-11-01T10:00:00Z.
    static let baseTime: Int64 = 1_793_527_200_000

    static func record(
        at time: Int64 = baseTime,
        site: String? = "rowhni",
        host: String = "rowhni.com",
        path: String = "/addfriend",
        kind: String = "fallback",
        rule: String? = "addfriend",
        status: Int = 200,
        utmSource: String? = nil,
        utmMedium: String? = nil,
        utmCampaign: String? = nil,
        parameters: [(name: String, value: String)] = [],
        userAgent: String? = nil,
        clientClass: String? = nil,
        clientAddress: String? = nil,
        method: String = "GET",
        event: String? = nil,
        secretToken: String? = nil
    ) -> LogRecord {
        LogRecord(
            timestampMilliseconds: time,
            siteID: site,
            host: host,
            method: method,
            path: path,
            kind: kind,
            rule: rule,
            status: status,
            durationMicroseconds: 150,
            utmSource: utmSource,
            utmMedium: utmMedium,
            utmCampaign: utmCampaign,
            trackedParameters: parameters,
            userAgent: userAgent,
            clientClass: clientClass,
            clientAddress: clientAddress,
            event: event,
            secretToken: secretToken
        )
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs anywhere in these bytes.
    func containsSequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
