import LinkLog
import LinkLogSQLite
import TestSupport
import Testing

@Suite("SQLite layer")
struct SQLiteLayerTests {
    @Test("every bound type reads back as written, NULL included")
    func roundTrip() throws {
        let folder = try TemporaryDirectory("sqlite")
        let connection = try SQLiteConnection(path: folder.path + "/t.sqlite")
        try connection.execute("CREATE TABLE t (a TEXT, b INTEGER, c REAL, d BLOB, e TEXT, f TEXT)")
        let insert = try connection.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        try insert.bind(text: "zürich \u{1F600}", at: 1)
        try insert.bind(integer: Int64.min, at: 2)
        try insert.bind(real: 2.5, at: 3)
        try insert.bind(blob: [0, 1, 255], at: 4)
        try insert.bind(text: nil, at: 5)
        try insert.bind(text: "", at: 6)
        #expect(try insert.step() == false)

        let select = try connection.prepare("SELECT a, b, c, d, e, f FROM t")
        #expect(try select.step())
        #expect(select.columnCount == 6)
        #expect(select.columnName(at: 3) == "d")
        #expect(select.text(at: 0) == "zürich \u{1F600}")
        #expect(select.int64(at: 1) == Int64.min)
        #expect(select.double(at: 2) == 2.5)
        #expect(select.blob(at: 3) == [0, 1, 255])
        #expect(select.isNull(at: 4))
        #expect(select.text(at: 4) == nil)
        // An empty string is text, not NULL.
        #expect(select.text(at: 5) == "")
        #expect(try select.step() == false)
    }

    @Test("a failed statement reports SQLite's message and a typed reason")
    func errors() throws {
        let folder = try TemporaryDirectory("sqlite")
        let connection = try SQLiteConnection(path: folder.path + "/t.sqlite")
        try connection.execute("CREATE TABLE t (a INTEGER PRIMARY KEY)")
        try connection.execute("INSERT INTO t VALUES (1)")
        let duplicate = #expect(throws: SQLiteError.self) { try connection.execute("INSERT INTO t VALUES (1)") }
        #expect(duplicate?.reason == .constraint)
        #expect(duplicate?.description.contains("UNIQUE") == true)

        let syntax = #expect(throws: SQLiteError.self) { _ = try connection.prepare("SELEKT 1") }
        #expect(syntax?.description.contains("syntax error") == true)

        let missing = #expect(throws: SQLiteError.self) {
            _ = try SQLiteConnection(path: folder.path + "/no/such/folder/x.sqlite", flags: [.readWrite, .create])
        }
        #expect(missing?.reason == .cannotOpen)
    }

    @Test("a transaction that throws is rolled back; one that returns is committed")
    func transactions() throws {
        struct Abort: Error {}
        let folder = try TemporaryDirectory("sqlite")
        let connection = try SQLiteConnection(path: folder.path + "/t.sqlite")
        try connection.execute("CREATE TABLE t (a INTEGER)")
        #expect(throws: Abort.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(!connection.isInTransaction)
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM t") == 0)
        try connection.transaction { try connection.execute("INSERT INTO t VALUES (2)") }
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM t") == 1)
        try connection.setUserVersion(7)
        #expect(try connection.userVersion() == 7)
    }
}
