import LinkLog

/// The hit log's tables in PostgreSQL: the same tables, columns and indexes as the SQLite log of the
/// same version, in PostgreSQL's types. A new database gets the current schema in one step; one
/// made by an earlier build is migrated. A PostgreSQL log started at version 5 (the first with
/// rollups); later versions add migrations here as they add them for SQLite. The version is kept in
/// `meta` (`schema_version`), and migrations hold an advisory lock, so instances starting together
/// migrate once. A test checks that a database migrated from version 5 and a new one are the same.
public enum PostgreSQLLogSchema {
    /// The schema this build writes and reads.
    public static let currentVersion = 10

    /// The current schema, derived from the declarations of the tables (`HitTable`, the rollups'
    /// `RollupTableSet` and `CreditTable`): what a new database is made with (`meta` is made first,
    /// by `migrate`).
    static var currentSchemaStatements: [String] {
        [HitTable.createTableSQL(definition)] + HitTable.indexes.map(\.createSQL)
            + RollupTableSet.allCases.flatMap { set in RollupGrain.coarsestFirst.flatMap { rollupTableStatements(table: set.table($0), columns: set.columns) } }
            + RollupGrain.coarsestFirst.flatMap { rollupTableStatements(table: CreditTable.table($0), columns: CreditTable.columns) }
    }

    /// How PostgreSQL spells a hits column: the id is an identity column, and integers are `INTEGER`
    /// or `BIGINT` as their fields are.
    static func definition(_ column: HitTable.Column) -> String {
        if column.type == .rowID { return typeName(.rowID) + " GENERATED ALWAYS AS IDENTITY PRIMARY KEY" }
        return column.isRequired ? typeName(column.type) + " NOT NULL" : typeName(column.type)
    }

    /// PostgreSQL's type for a hits column's values (the writer's arrays are arrays of it).
    static func typeName(_ type: HitTable.SQLType) -> String {
        switch type {
        case .rowID, .bigInteger: "BIGINT"
        case .integer: "INTEGER"
        case .text: "TEXT"
        }
    }

    /// The `meta` key holding the schema version.
    static let versionKey = "schema_version"

    /// An arbitrary number the migrating instance holds as a transaction-level advisory lock.
    static let migrationLock: Int64 = 0x6C69_6E6B_686F_7374

    /// Each version's statements, from an empty database. Never edit a published step: add a new one
    /// (and the column's line in `HitTable`). A new database skips them (`currentSchemaStatements`).
    static let migrations: [(version: Int, statements: [String])] = [
        (
            5,
            [
                """
                CREATE TABLE hits (
                    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    ts_ms        BIGINT NOT NULL,
                    site         TEXT,
                    host         TEXT NOT NULL,
                    method       TEXT NOT NULL,
                    path         TEXT NOT NULL,
                    kind         TEXT NOT NULL,
                    rule         TEXT,
                    status       INTEGER NOT NULL,
                    duration_us  BIGINT NOT NULL,
                    utm_source   TEXT,
                    utm_medium   TEXT,
                    utm_campaign TEXT,
                    utm_term     TEXT,
                    utm_content  TEXT,
                    referrer     TEXT,
                    user_agent   TEXT,
                    client_addr  TEXT,
                    params       TEXT,
                    client_class TEXT,
                    event        TEXT,
                    secret       TEXT
                )
                """,
                "CREATE INDEX hits_time ON hits (ts_ms)",
                "CREATE INDEX hits_secret_time ON hits (secret, ts_ms) WHERE secret IS NOT NULL",
                "CREATE INDEX hits_open_time ON hits (ts_ms) WHERE kind = 'app_open' AND secret IS NOT NULL",
            ]
                + RollupTableSet.allCases.flatMap { set in
                    RollupGrain.coarsestFirst.flatMap { rollupTableStatements(table: set.table($0), columns: set.columns) }
                },
        ),
        // As SQLite's version 6: the pairing the writer keeps (`OpenCrediting`); the opens already
        // there are paired at version 8 (`afterMigration`).
        (
            6,
            [
                "ALTER TABLE hits ADD COLUMN view_id BIGINT",
                "CREATE INDEX hits_view ON hits (view_id) WHERE view_id IS NOT NULL",
                "CREATE INDEX hits_open_secret ON hits (secret, ts_ms) WHERE kind = 'app_open' AND secret IS NOT NULL",
            ] + RollupGrain.coarsestFirst.flatMap { rollupTableStatements(table: CreditTable.table($0), columns: CreditTable.columns) },
        ),
        // As SQLite's version 7: each hit's query, secret values hashed (`check --against-log`), and
        // the last id of the rows logged before it.
        (
            7,
            [
                "ALTER TABLE hits ADD COLUMN query TEXT",
                "INSERT INTO meta (key, value) SELECT '\(HitTable.queriesKeptAfterIDKey)', COALESCE(MAX(id), 0) FROM hits",
            ]
        ),
        // As SQLite's version 8: the view token, the in-app browser's app and the referrer's host.
        (
            8,
            [
                "ALTER TABLE hits ADD COLUMN referrer_host TEXT",
                "ALTER TABLE hits ADD COLUMN in_app TEXT",
                "ALTER TABLE hits ADD COLUMN view_token TEXT",
                "CREATE INDEX hits_view_token ON hits (view_token) WHERE kind = 'fallback' AND view_token IS NOT NULL",
                "CREATE INDEX hits_open_token ON hits (view_token, ts_ms) WHERE kind = 'app_open' AND view_token IS NOT NULL",
                "CREATE INDEX hits_bypass_time ON hits (ts_ms) WHERE kind = 'app_open' AND event = 'custom-scheme' AND view_id IS NOT NULL",
            ]
        ),
        // As SQLite's version 9: the index of rows by code holds views alone. Building it holds off
        // every instance's inserts until the migration commits; a large fleet log builds it ahead
        // without that (`CREATE INDEX CONCURRENTLY`, docs/fleet.md), and the step keeps it.
        (
            9,
            [
                "CREATE INDEX IF NOT EXISTS hits_view_secret ON hits (secret, ts_ms) WHERE kind = 'fallback' AND status = 200 AND secret IS NOT NULL",
                "DROP INDEX IF EXISTS hits_secret_time",
            ]
        ),
        // As SQLite's version 11: `preview_app` (kept if an operator added it ahead, as the index
        // of version 9 may be), and the mark of the rows `linkhost rollup` must bring to the
        // campaign rule.
        (
            10,
            [
                "ALTER TABLE hits ADD COLUMN IF NOT EXISTS preview_app TEXT",
                "INSERT INTO meta (key, value) SELECT '\(HitTable.rebuildPendingThroughKey)', MAX(id) FROM hits HAVING MAX(id) IS NOT NULL",
            ]
        ),
    ]

    /// Work a version needs beyond its statements, in the same transaction: as in SQLite, the opens
    /// are paired and credited at version 8 (with view tokens, and filed under their way in), not
    /// at 6, whose columns the current pairing code outgrew.
    static func afterMigration(to version: Int, _ connection: PostgreSQLConnection) throws {
        if version == 8 { try RollupBuilder(connection: connection).rebuildCreditsInCurrentTransaction() }
    }

    /// A rollup table and its key: unique with NULLs not distinct (PostgreSQL 15), so concurrent
    /// writers add to one row per key with `INSERT … ON CONFLICT DO UPDATE`; the count is included in
    /// the index so statistics read the index alone.
    static func rollupTableStatements(table: String, columns dimensions: [String]) -> [String] {
        let columns = dimensions.map { column in
            "\(column) \(rollupDimensionType(column))\(column == "status" || column == "host" || column == "kind" ? " NOT NULL" : ""), "
        }
        return [
            "CREATE TABLE \(table) (bucket_ms BIGINT NOT NULL, \(columns.joined())hits BIGINT NOT NULL)",
            "CREATE UNIQUE INDEX \(table)_key ON \(table) (\(keyColumns(dimensions))) INCLUDE (hits) NULLS NOT DISTINCT",
        ]
    }

    /// The type of a rollup table's dimension column: `status` is a number, the others text.
    static func rollupDimensionType(_ column: String) -> String {
        column == "status" ? "INTEGER" : "TEXT"
    }

    /// The columns of a rollup row's key, in the order of its unique index.
    static func keyColumns(_ dimensions: [String]) -> String {
        (["bucket_ms"] + dimensions).joined(separator: ", ")
    }

    /// Brings the database to `currentVersion` (a new one at once); refuses one from a newer build.
    static func migrate(_ connection: PostgreSQLConnection, displayName: String) throws {
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(\(migrationLock))")
            try connection.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL)")
            let found = Int(try connection.queryInteger("SELECT value FROM meta WHERE key = $1", [.text(versionKey)]) ?? 0)
            guard found <= currentVersion else {
                throw LogError.schemaTooNew(path: displayName, found: found, supported: currentVersion)
            }
            if found == 0 {
                for statement in currentSchemaStatements { try connection.execute(statement) }
                try setVersion(currentVersion, connection)
                return
            }
            for migration in migrations where migration.version > found {
                for statement in migration.statements { try connection.execute(statement) }
                try afterMigration(to: migration.version, connection)
                try setVersion(migration.version, connection)
            }
        }
    }

    private static func setVersion(_ version: Int, _ connection: PostgreSQLConnection) throws {
        try connection.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            [.text(versionKey), .integer(Int64(version))])
    }
}
