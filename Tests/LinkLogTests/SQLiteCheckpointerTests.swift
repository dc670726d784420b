import Glibc
import LinkLog
import LinkLogSQLite
import TestSupport
import Testing

/// The log writer's checkpoints (`SQLiteCheckpointer`), driven commit by commit with sizes small
/// enough to count pages: what the thread copies, what the writer copies itself, and what neither
/// touches. Each test stops the thread it started.
@Suite("SQLite checkpoints off the writer's thread")
struct SQLiteCheckpointerTests {
    /// A database in WAL mode with one table, as the log writer's connection has it, reporting its
    /// commits to a checkpointer of these sizes; in a folder removed when the caller lets go of it.
    private static func start(requestFrames: Int, writerFrames: Int) throws -> (TemporaryDirectory, SQLiteConnection, String, SQLiteCheckpointer) {
        let folder = try TemporaryDirectory("checkpoint")
        let path = folder.path + "/log.sqlite"
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("CREATE TABLE t (a BLOB)")
        let checkpointer = try SQLiteCheckpointer(path: path, requestFrames: requestFrames, writerFrames: writerFrames)
        checkpointer.attach(to: connection)
        return (folder, connection, path, checkpointer)
    }

    /// Commits a row of three pages' worth of bytes.
    private static func commitRow(_ connection: SQLiteConnection) throws {
        try connection.execute("INSERT INTO t VALUES (zeroblob(12000))", [])
    }

    /// Size of the file at `path` (the database itself, not its WAL), in bytes.
    private static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    @Test("below the request size nothing is copied into the file: SQLite's own checkpoint is off")
    func belowRequest() throws {
        let (folder, connection, path, checkpointer) = try Self.start(requestFrames: 10_000, writerFrames: 20_000)
        defer { withExtendedLifetime(folder) {} }
        // Past SQLite's default of 1,000 pages, which would have copied them in the commit.
        for _ in 0..<400 { try Self.commitRow(connection) }
        let frames = checkpointer.walFrames
        checkpointer.detach(from: connection)
        checkpointer.stop()
        #expect(frames > 1_000)
        #expect(checkpointer.checkpoints == 0)
        #expect(Self.size(path) < 16 * 4096)
    }

    @Test("at the request size the thread copies the WAL into the file, and stopping waits for it")
    func threadCopies() throws {
        let (folder, connection, path, checkpointer) = try Self.start(requestFrames: 40, writerFrames: 100_000)
        defer { withExtendedLifetime(folder) {} }
        var rows = 0
        while checkpointer.walFrames < 40 {
            try Self.commitRow(connection)
            rows += 1
        }
        // Stopping finishes the checkpoint asked for: no wait on the clock for the thread.
        checkpointer.detach(from: connection)
        checkpointer.stop()
        #expect(checkpointer.checkpoints == 1)
        #expect(checkpointer.failedCheckpoints == 0)
        // Each row takes at least two pages of its own (its bytes overflow the leaf).
        #expect(Self.size(path) >= rows * 2 * 4096)
        // Every row is in the file the thread wrote, read by a connection of its own.
        let reader = try SQLiteConnection(path: path, flags: [.readOnly])
        #expect(try reader.queryInteger("SELECT COUNT(*) FROM t") == Int64(try connection.queryInteger("SELECT COUNT(*) FROM t") ?? -1))
    }

    @Test("at the writer's size the commit copies the WAL itself and the next one starts it over")
    func writerCopies() throws {
        // The thread is never asked (its size is out of reach): only the writer's own checkpoint runs.
        let (folder, connection, path, checkpointer) = try Self.start(requestFrames: 1_000_000, writerFrames: 60)
        defer { withExtendedLifetime(folder) {} }
        defer {
            checkpointer.detach(from: connection)
            checkpointer.stop()
        }
        var rows = 0
        while checkpointer.walFrames < 60 {
            #expect(Self.size(path) < 16 * 4096)
            try Self.commitRow(connection)
            rows += 1
        }
        // That commit's hook copied everything into the file.
        #expect(Self.size(path) >= rows * 2 * 4096)
        try Self.commitRow(connection)
        #expect(checkpointer.walFrames < 10)
        #expect(checkpointer.checkpoints == 0)
    }
}
