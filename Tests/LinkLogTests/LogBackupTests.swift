import Foundation
import LinkLogSQLite
import TestSupport
import Testing

@testable import LinkLog

/// `LogBackup` on a SQLite log: a copy as of one moment while a writer appends, its key beside it,
/// and how a restored copy meets the writer's journal.
@Suite("Log backup")
struct LogBackupTests {
    typealias S = FunnelSample

    /// A page view, click or app open for record `index` of the appender: a mix of kinds, campaigns and
    /// invite codes, so the statistics compared have several groups.
    static func mixed(_ index: Int) -> LogRecord {
        let time = S.base + Int64(index) * 1000
        switch index % 4 {
        case 0: return S.view("C\(index % 50)", at: time, campaign: ["spring", "autumn", nil][index % 3])
        case 1: return S.click(["open-app", "store"][index % 2], at: time, campaign: "spring")
        case 2: return S.open("C\(index % 50)", at: time + S.hour)
        default: return Sample.record(at: time, kind: "aasa", rule: nil)
        }
    }

    /// The answers compared between the live log at the copy's moment and the copy.
    struct Answers: Equatable {
        var kinds: [StatsRow]
        var campaigns: [StatsRow]
        var funnel: [FunnelRow]
        var count: Int
    }

    static func answers(_ reader: LogReader) throws -> Answers {
        Answers(
            kinds: try reader.stats(by: .kind), campaigns: try reader.stats(by: .utmCampaign), funnel: try reader.funnel(by: .utmCampaign),
            count: try reader.count())
    }

    static func integrity(_ path: String) throws -> String? {
        try SQLiteConnection(path: path, flags: [.readOnly]).queryText("PRAGMA integrity_check")
    }

    @Test("a backup taken while a writer appends opens, passes integrity_check and answers as the log did at its moment, while the writer commits on")
    func copyUnderLoad() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer()
        let stop = StopFlag()
        let appender = Thread {
            var index = 0
            while !stop.isSet {
                _ = writer.enqueue(Self.mixed(index))
                index += 1
                // A few dozen records a commit, so the writer commits many times during the copy.
                if index % 64 == 0 { _ = writer.drain() }
            }
        }
        appender.start()
        defer { stop.set() }
        #expect(writer.waitForStatus(timeout: .seconds(60)) { $0.written >= 2000 })

        let live = SQLiteLogDatabase(path: fixture.databasePath)
        var atMoment: Answers?
        var writtenDuringCopy = false
        let backup = try LogBackup.write(from: live, into: fixture.folder.path + "/backup") { connection in
            atMoment = try Self.answers(LogReader(connection: connection, databaseName: live.displayName))
            // The writer is not held up by the copy's read transaction: it commits more meanwhile.
            let before = writer.status.written
            writtenDuringCopy = writer.waitForStatus(timeout: .seconds(60)) { $0.written >= before + 500 }
        }
        stop.set()
        #expect(waitUntil { appender.isFinished })
        let final = writer.stop()
        #expect(writtenDuringCopy)

        #expect(try Self.integrity(backup.databasePath) == "ok")
        let copy = try Self.answers(LogReader(databasePath: backup.databasePath))
        #expect(copy == atMoment)
        #expect(Int64(copy.count) == backup.snapshot.rows)
        let copyConnection = try SQLiteConnection(path: backup.databasePath, flags: [.readOnly])
        #expect(try copyConnection.queryInteger("SELECT max(id) FROM hits") == backup.snapshot.lastRowID)
        // Every row at or before the moment, none after: the live log's first rows are the copy's.
        let liveCount = try fixture.reader().count()
        #expect(liveCount == final.written)
        #expect(liveCount > copy.count)
        let liveConnection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        #expect(try liveConnection.queryInteger("SELECT count(*) FROM hits WHERE id <= \(backup.snapshot.lastRowID ?? 0)") == backup.snapshot.rows)
        // The copy records where it stands in the writer's journal, as the live log did then.
        #expect(backup.snapshot.journalPositions.count == 1)
        #expect(backup.snapshot.journalPositions.values.first.map { $0 >= backup.snapshot.rows } == true)
        #expect(try copyConnection.queryInteger("SELECT value FROM meta WHERE key = '\(HitTable.backupTakenKey)'") == backup.snapshot.takenMilliseconds)
        #expect(try copyConnection.queryText("PRAGMA journal_mode") == "delete")
    }

    @Test("the key goes beside the copy, mode 0600, and a restored log pairs an app open with a view of the same invite code")
    func restoredLogPairsByCode() throws {
        let fixture = try LogFixture()
        let keyPath = SecretHasher.keyFilePath(forDatabase: fixture.databasePath)
        let hasher = try SecretHasher(keyFile: keyPath)
        func view(_ code: String, _ hasher: SecretHasher) -> LogRecord {
            Sample.record(path: "/addfriend", kind: "fallback", secretToken: hasher.token(for: code))
        }
        try fixture.write([view("INVITE7", hasher), view("OTHER1", hasher)])
        let backup = try LogBackup.write(from: SQLiteLogDatabase(path: fixture.databasePath), into: fixture.folder.path + "/backup")
        let copiedKey = try #require(backup.keyPath)
        var info = stat()
        #expect(stat(copiedKey, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(FileManager.default.contents(atPath: copiedKey) == FileManager.default.contents(atPath: keyPath))

        // Restored on another machine: both files in a new folder, a new journal.
        let restored = try TemporaryDirectory("restored")
        let database = restored.path + "/hits.sqlite"
        try FileManager.default.copyItem(atPath: backup.databasePath, toPath: database)
        try FileManager.default.copyItem(atPath: copiedKey, toPath: SecretHasher.keyFilePath(forDatabase: database))
        let restoredHasher = try SecretHasher(keyFile: SecretHasher.keyFilePath(forDatabase: database))
        let writer = try LogWriter(
            configuration: LogWriterConfiguration(
                database: SQLiteLogDatabase(path: database), journalPath: restored.path + "/journal", journalSizeBytes: 16 << 20))
        let open = Sample.record(
            at: Sample.baseTime + S.hour, path: "/v1/opens", kind: "app_open", status: 204, method: "POST", secretToken: restoredHasher.token(for: "INVITE7"))
        _ = writer.enqueue(open)
        writer.stop()
        let row = try #require(try LogReader(databasePath: database).funnel(by: nil).first)
        #expect(row.views == 2)
        #expect(row.appOpens == 1)
        #expect(row.opensAfterView == 1)
    }

    @Test("a restored copy meets the live journal: the records the journal holds after the copy's mark are written once, none before it")
    func restoredCopyMeetsTheJournal() throws {
        let fixture = try LogFixture()
        try fixture.write((0..<10).map { Sample.record(at: Sample.baseTime + Int64($0), path: "/before/\($0)") })
        let backup = try LogBackup.write(from: SQLiteLogDatabase(path: fixture.databasePath), into: fixture.folder.path + "/backup")
        #expect(backup.snapshot.journalPositions.values.first == 10)
        // Logged after the backup into the log that is then lost: the journal hands their space back.
        try fixture.write((0..<5).map { Sample.record(at: Sample.baseTime + 100 + Int64($0), path: "/lost/\($0)") })
        // Logged while the database could not be written: they wait in the journal.
        let blocker = try fixture.folder.write("blocker", "a file where a folder should be")
        let failing = try fixture.writer(path: blocker + "/hits.sqlite")
        for index in 0..<3 { #expect(failing.enqueue(Sample.record(at: Sample.baseTime + 200 + Int64(index), path: "/waiting/\(index)"))) }
        #expect(failing.stop(timeout: .zero).isStopped)

        // The log is lost and the backup put back in its place with the server stopped; the journal stays.
        for suffix in ["", "-wal", "-shm"] { unlink(fixture.databasePath + suffix) }
        try FileManager.default.copyItem(atPath: backup.databasePath, toPath: fixture.databasePath)
        try fixture.write([Sample.record(at: Sample.baseTime + 300, path: "/restored")])

        let paths = try fixture.reader().rows().map(\.path).sorted()
        #expect(paths == ((0..<10).map { "/before/\($0)" } + (0..<3).map { "/waiting/\($0)" } + ["/restored"]).sorted())
        let connection = try SQLiteConnection(path: fixture.databasePath, flags: [.readOnly])
        #expect(try connection.queryInteger("SELECT value FROM meta WHERE key = '\(HitTable.backupTakenKey)'") == nil)
        // Records #11–#15 went with the lost log; #16–#19 were written into the restored one.
        #expect(try connection.queryInteger("SELECT max(value) FROM meta WHERE key LIKE 'batch:journal:%'") == 19)
    }

    @Test("a folder that holds a backup is refused, the first backup kept; a folder that cannot be made is named")
    func refusals() throws {
        let fixture = try LogFixture()
        try fixture.write([Sample.record()])
        _ = try SecretHasher(keyFile: SecretHasher.keyFilePath(forDatabase: fixture.databasePath))
        let live = SQLiteLogDatabase(path: fixture.databasePath)
        let folder = fixture.folder.path + "/backup"
        let first = try LogBackup.write(from: live, into: folder)
        let bytes = FileManager.default.contents(atPath: first.databasePath)
        #expect(throws: LogError.backupInTheWay(path: first.databasePath)) { try LogBackup.write(from: live, into: folder) }
        #expect(FileManager.default.contents(atPath: first.databasePath) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["hits.sqlite", "hits.sqlite.key"])

        // Only the key left of an earlier attempt is in the way too.
        let keyOnly = fixture.folder.path + "/key-only"
        try FileManager.default.createDirectory(atPath: keyOnly, withIntermediateDirectories: false)
        _ = try fixture.folder.write("key-only/hits.sqlite.key", "1")
        #expect(throws: LogError.backupInTheWay(path: keyOnly + "/hits.sqlite.key")) { try LogBackup.write(from: live, into: keyOnly) }

        _ = try fixture.folder.write("a-file", "")
        #expect(throws: LogError.self) { try LogBackup.write(from: live, into: fixture.folder.path + "/a-file/backup") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["hits.sqlite", "hits.sqlite.key"])
    }
}
