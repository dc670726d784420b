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
        try connection.execute("CREATE TABLE t (a TEXT, b INTEGER, c INTEGER, e TEXT, f TEXT)")
        let written: [SQLValue] = [.text("zürich \u{1F600}"), .integer(Int64.min), .integer(Int64.max), .null, .text("")]
        #expect(try connection.execute("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)", written) == 1)

        var rows: [[SQLValue]] = []
        try connection.query("SELECT a, b, c, e, f FROM t", []) { rows.append($0) }
        // An empty string is text, not NULL.
        #expect(rows == [written])
        #expect(try connection.queryText("SELECT a FROM t") == "zürich \u{1F600}")
        #expect(try connection.queryText("SELECT e FROM t") == nil)
        #expect(try connection.queryInteger("SELECT b FROM t") == Int64.min)
        #expect(try connection.queryInteger("SELECT e FROM t") == nil)
    }

    @Test("a list bound as one parameter matches exactly its values: quotes, backslashes, control characters, NULL")
    func listParameter() throws {
        let folder = try TemporaryDirectory("sqlite")
        let connection = try SQLiteConnection(path: folder.path + "/t.sqlite")
        try connection.execute("CREATE TABLE t (a TEXT, b INTEGER)")
        let texts = ["plain", "\"quoted\"", "back\\slash", "tab\tline\nend\u{1}", "ünïcødé 🙂", "", "[1]", "null"]
        for (index, text) in texts.enumerated() {
            try connection.execute("INSERT INTO t VALUES (?1, ?2)", [.text(text), .integer(Int64(index) - 3)])
        }
        try connection.execute("INSERT INTO t VALUES ('not asked for', 99)", [])
        let dialect = connection.dialect
        var read: [String] = []
        try connection.query("SELECT a FROM t WHERE \(dialect.isOneOf("a", .text, "?1")) ORDER BY b", [dialect.listValue(texts.map(SQLValue.text) + [.null])]) {
            if case .text(let text) = $0[0] { read.append(text) }
        }
        #expect(read == texts)
        #expect(
            try connection.queryInteger(
                "SELECT COUNT(*) FROM t WHERE \(dialect.isOneOf("b", .integer, "?1"))", [dialect.listValue([.integer(-3), .integer(4), .integer(1000)])]) == 2)
        #expect(try connection.queryInteger("SELECT COUNT(*) FROM t WHERE \(dialect.isOneOf("b", .integer, "?1"))", [dialect.listValue([])]) == 0)
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

    /// `query` and `execute` keep their compiled statements: a statement run again has none of its
    /// last values bound, sees rows written since, may be run again from inside its own rows, and
    /// more distinct statements than the cache holds all still run.
    @Test("kept statements start clean each time, nest, and give way past the cache's limit")
    func keptStatements() throws {
        let folder = try TemporaryDirectory("sqlite")
        let connection = try SQLiteConnection(path: folder.path + "/t.sqlite")
        try connection.execute("CREATE TABLE t (a INTEGER, b TEXT)")
        let insert = "INSERT INTO t VALUES (?1, ?2)"
        #expect(try connection.execute(insert, [.integer(1), .text("one")]) == 1)
        // The same statement with one value fewer: the second parameter is NULL, not "one" again.
        #expect(try connection.execute(insert, [.integer(2)]) == 1)
        let select = "SELECT a, b FROM t WHERE a >= ?1 ORDER BY a"
        var rows: [[SQLValue]] = []
        try connection.query(select, [.integer(0)]) { rows.append($0) }
        #expect(rows == [[.integer(1), .text("one")], [.integer(2), .null]])

        var nested: [Int64] = []
        try connection.query(select, [.integer(0)]) { outer in
            try connection.query(select, [outer[0]]) { inner in nested.append(inner[0].integer ?? -1) }
        }
        #expect(nested == [1, 2, 2])

        for index in 0..<(SQLiteConnection.cachedStatementLimit * 2) {
            var count: Int64?
            try connection.query("SELECT count(*) + \(index) FROM t", []) { count = $0[0].integer }
            #expect(count == Int64(2 + index))
        }
        #expect(try connection.execute(insert, [.integer(3), .text("three")]) == 1)
        rows = []
        try connection.query(select, [.integer(3)]) { rows.append($0) }
        #expect(rows == [[.integer(3), .text("three")]])
    }
}
