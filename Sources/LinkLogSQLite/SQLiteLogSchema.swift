import LinkLog

/// The hit log's tables in SQLite: the current schema, which a new database gets in one step, and
/// the migrations that bring a log file of any earlier version to it. The version lives in
/// `PRAGMA user_version`; each step runs in its own transaction together with the version bump, so a
/// database is always at exactly one version. A test checks that a database migrated from version 1
/// and a new one have the same schema.
public enum SQLiteLogSchema {
    /// The schema this build writes and reads.
    public static var currentVersion: Int { migrations.count }

    /// The current schema, derived from the declarations of the tables (`HitTable`, the rollups'
    /// `RollupTableSet` and `CreditTable`): what a new database is made with.
    static var currentSchemaSQL: String {
        let hits = ([HitTable.createTableSQL(definition)] + HitTable.indexes.filter(\.inSQLite).map(\.createSQL) + [SQLiteViewChains.createTableSQL])
            .map { $0 + ";\n" }.joined()
        let meta = "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;\n"
        let rollups =
            RollupTableSet.allCases.flatMap { set in RollupGrain.coarsestFirst.map { rollupTableSQL(table: set.table($0), columns: set.columns) } }
            + RollupGrain.coarsestFirst.map { rollupTableSQL(table: CreditTable.table($0), columns: CreditTable.columns) }
        return hits + meta + rollups.joined()
    }

    /// How SQLite spells a hits column: every integer is an `INTEGER`, and the id the `INTEGER PRIMARY
    /// KEY` that is the row's rowid.
    static func definition(_ column: HitTable.Column) -> String {
        switch column.type {
        case .rowID: "INTEGER PRIMARY KEY"
        case .integer, .bigInteger: column.isRequired ? "INTEGER NOT NULL" : "INTEGER"
        case .text: column.isRequired ? "TEXT NOT NULL" : "TEXT"
        }
    }

    /// One step from version `version - 1` to `version`.
    struct Migration: Sendable {
        let version: Int
        let apply: @Sendable (SQLiteConnection) throws -> Void
    }

    /// Every step from an empty file, in order; `migrations[n - 1]` makes version n. Never edit a
    /// published step: add a new one (and the column's line in `HitTable`). A new database skips
    /// them (`currentSchemaSQL`); they stay for the databases made by earlier builds.
    static let migrations: [Migration] = [
        // Version 1: the first hit log — one row per answered request, UTM parameters as columns.
        Migration(version: 1) { connection in
            try connection.execute(
                """
                CREATE TABLE hits (
                    id           INTEGER PRIMARY KEY,
                    ts_ms        INTEGER NOT NULL,
                    site         TEXT,
                    host         TEXT NOT NULL,
                    method       TEXT NOT NULL,
                    path         TEXT NOT NULL,
                    kind         TEXT NOT NULL,
                    rule         TEXT,
                    status       INTEGER NOT NULL,
                    duration_us  INTEGER NOT NULL,
                    utm_source   TEXT,
                    utm_medium   TEXT,
                    utm_campaign TEXT,
                    utm_term     TEXT,
                    utm_content  TEXT,
                    referrer     TEXT,
                    user_agent   TEXT,
                    client_addr  TEXT
                );
                CREATE INDEX hits_time      ON hits (ts_ms);
                CREATE INDEX hits_kind_time ON hits (kind, ts_ms);
                CREATE INDEX hits_rule_time ON hits (rule, ts_ms);
                CREATE INDEX hits_host_time ON hits (host, ts_ms);
                """)
        },
        // Version 2: other tracked parameters as one JSON object, the client class (filled in for
        // existing rows from their user agent), campaign indexes, and a small key/value table.
        Migration(version: 2) { connection in
            try connection.execute(
                """
                ALTER TABLE hits ADD COLUMN params TEXT;
                ALTER TABLE hits ADD COLUMN client_class TEXT;
                CREATE INDEX hits_utm_source_time   ON hits (utm_source, ts_ms);
                CREATE INDEX hits_utm_campaign_time ON hits (utm_campaign, ts_ms);
                CREATE TABLE meta (
                    key   TEXT PRIMARY KEY,
                    value INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
            try backfillClientClass(connection)
        },
        // Version 3: the rule and campaign indexes only hold rows that have a rule or a campaign.
        // Most hits (AASA fetches, static files, 404s) have neither, and each index a row enters
        // costs the writer about as much as the row itself; at tens of thousands of hits a second
        // that is the difference between keeping up and not. Lookups like `rule = ?` still use them
        // (an equality implies IS NOT NULL).
        Migration(version: 3) { connection in
            try connection.execute(
                """
                DROP INDEX hits_rule_time;
                DROP INDEX hits_utm_source_time;
                DROP INDEX hits_utm_campaign_time;
                CREATE INDEX hits_rule_time         ON hits (rule, ts_ms)         WHERE rule IS NOT NULL;
                CREATE INDEX hits_utm_source_time   ON hits (utm_source, ts_ms)   WHERE utm_source IS NOT NULL;
                CREATE INDEX hits_utm_campaign_time ON hits (utm_campaign, ts_ms) WHERE utm_campaign IS NOT NULL;
                """)
        },
        // Version 4: app opens and page events. `event` names what a fallback page reported (kind
        // `event`); `secret` holds the hashed token of a rule's secret parameter for views, bad links
        // and app opens, so the funnel can pair a view with the app open that followed it. Only rows
        // with a token enter the index, which the pairing looks up by token and time.
        Migration(version: 4) { connection in
            try connection.execute(
                """
                ALTER TABLE hits ADD COLUMN event TEXT;
                ALTER TABLE hits ADD COLUMN secret TEXT;
                CREATE INDEX hits_secret_time ON hits (secret, ts_ms) WHERE secret IS NOT NULL;
                """)
        },
        // Version 5: rollups. Hourly and daily counts per site, host, rule, kind, status, client
        // class, UTM source, medium and campaign, and event (and narrower families of the same for
        // campaign and site reports, `RollupTableSet`), which the writer keeps in the same
        // transaction as the rows, and statistics read instead of counting millions of rows. With
        // them, the per-column time indexes only made the writer slower (every index a row enters
        // costs about as much as the row), so they go; what stays is the time index (the cut hours at
        // the ends of a range, `log`), the secret index (the funnel's pairing) and a small index of
        // the app opens the pairing starts from. The counts are built from the rows already there.
        Migration(version: 5) { connection in
            try connection.execute(
                RollupTableSet.allCases.flatMap { set in RollupGrain.coarsestFirst.map { rollupTableSQL(table: set.table($0), columns: set.columns) } }
                    .joined(separator: "\n") + """
                        DROP INDEX hits_kind_time;
                        DROP INDEX hits_host_time;
                        DROP INDEX hits_rule_time;
                        DROP INDEX hits_utm_source_time;
                        DROP INDEX hits_utm_campaign_time;
                        CREATE INDEX hits_open_time ON hits (ts_ms) WHERE kind = 'app_open' AND secret IS NOT NULL;
                        """)
            try RollupBuilder(connection: connection).rebuildHitRollupsInCurrentTransaction()
        },
        // Version 6: the funnel's pairing, kept by the writer instead of worked out per query (a
        // second on 10 million rows): `view_id` on an app open names the view it followed
        // (`OpenCrediting`), indexed for the opens of a view, and the credit rollup counts paired
        // opens by their view's hour and fields (`CreditTable`). A new view looks for later opens of
        // its code through an index of the app opens alone: through the secret index it would walk
        // every later view of a code too, and a code on a poster has thousands. Existing opens are
        // paired by version 8's step, which pairs them again with view tokens (the pairing is the
        // current build's code, which reads columns this step does not have yet).
        Migration(version: 6) { connection in
            try connection.execute(
                """
                ALTER TABLE hits ADD COLUMN view_id INTEGER;
                CREATE INDEX hits_view ON hits (view_id) WHERE view_id IS NOT NULL;
                CREATE INDEX hits_open_secret ON hits (secret, ts_ms) WHERE kind = 'app_open' AND secret IS NOT NULL;

                """ + RollupGrain.coarsestFirst.map { rollupTableSQL(table: CreditTable.table($0), columns: CreditTable.columns) }.joined(separator: "\n"))
        },
        // Version 7: each hit's query (secret values hashed), so an AASA change can be checked
        // against the links people used (`check --against-log`). Rows logged before stay NULL, and
        // `meta` keeps the last of their ids, so a reader tells "no query" from "not kept".
        Migration(version: 7) { connection in
            try connection.execute(
                """
                ALTER TABLE hits ADD COLUMN query TEXT;
                INSERT INTO meta (key, value) SELECT '\(HitTable.queriesKeptAfterIDKey)', COALESCE(MAX(id), 0) FROM hits;
                """)
        },
        // Version 8: attribution by view token. `view_token` is a fallback view's random token (and
        // the one an app open reports), indexed for the pairing both ways; `in_app` names the app of
        // an in-app browser and `referrer_host` the Referer's host, the funnel's two new groupings.
        // Rows logged before have none of the three. The credit rollup now files a credited open
        // under its own way in (its `event`, see `CreditTable`), so every open is paired and
        // counted again.
        Migration(version: 8) { connection in
            try connection.execute(
                """
                ALTER TABLE hits ADD COLUMN referrer_host TEXT;
                ALTER TABLE hits ADD COLUMN in_app TEXT;
                ALTER TABLE hits ADD COLUMN view_token TEXT;
                CREATE INDEX hits_view_token ON hits (view_token) WHERE kind = 'fallback' AND view_token IS NOT NULL;
                CREATE INDEX hits_open_token ON hits (view_token, ts_ms) WHERE kind = 'app_open' AND view_token IS NOT NULL;
                CREATE INDEX hits_bypass_time ON hits (ts_ms) WHERE kind = 'app_open' AND event = 'custom-scheme' AND view_id IS NOT NULL;
                """)
            // The rebuild pairs through this build's chains (version 10), made here already.
            try connection.execute(SQLiteViewChains.createTableSQL)
            try connection.viewChains.extend()
            try RollupBuilder(connection: connection).rebuildCreditsInCurrentTransaction()
        },
        // Version 9: the index of rows by code holds views alone (fallback pages served with 200),
        // the only rows the pairing looks a code up among. With app opens in it, an open of a code
        // opened many times before walked back over all those opens to reach a view (a writer at
        // one open a second for a much-opened code), and each open of a new code wrote a second
        // random leaf beside the one in the index of app opens by code.
        Migration(version: 9) { connection in
            try connection.execute(
                """
                DROP INDEX IF EXISTS hits_secret_time;
                CREATE INDEX hits_view_secret ON hits (secret, ts_ms) WHERE kind = 'fallback' AND status = 200 AND secret IS NOT NULL;
                """)
        },
        // Version 10: views are found by code through chains (`SQLiteViewChains`), not through an
        // index keyed by the code, whose random leaf cost the writer 4–7 µs a new code. The views
        // already logged are chained here, in order.
        Migration(version: 10) { connection in
            try connection.execute(SQLiteViewChains.createTableSQL + "; DROP INDEX IF EXISTS hits_view_secret;")
            try connection.viewChains.extend()
        },
        // Version 11: the campaign rule (`OpenCampaign`): a paired app open carries its view's
        // campaign, so no count files it under one campaign and its credit under another. And
        // `preview_app`, which app or crawler fetched a fallback page no person saw. The rows
        // logged before are brought to both by the next rollup rebuild, which runs while the
        // server serves, not here: on 2 million rows with 100,000 paired opens moving the opens
        // and their rollup counts at open held the start up for half a minute. `meta` notes the
        // last such row until then, and readers say so (`LogReader.rebuildPendingThroughID`).
        Migration(version: 11) { connection in
            try connection.execute(
                """
                ALTER TABLE hits ADD COLUMN preview_app TEXT;
                INSERT INTO meta (key, value) SELECT '\(HitTable.rebuildPendingThroughKey)', MAX(id) FROM hits HAVING MAX(id) IS NOT NULL;
                """)
        },
    ]

    /// A rollup table and the index the writer finds a key's row by (`SQLiteLogStore`), which also
    /// serves the time-range scans of statistics: it starts with the bucket and ends with the count,
    /// so a statistic reads the index alone, in order, and never the table (which costs the writer
    /// one index update per key and batch, not per row). Not unique: SQLite's unique indexes treat
    /// NULLs as distinct, so uniqueness is the writer's doing (update, or insert when nothing was
    /// updated), and every reader sums rows anyway.
    static func rollupTableSQL(table: String, columns dimensions: [String]) -> String {
        let columns = dimensions.map { column in
            "    \(column) \(column == "status" ? "INTEGER NOT NULL" : column == "host" || column == "kind" ? "TEXT NOT NULL" : "TEXT"),"
        }
        return """
            CREATE TABLE \(table) (
                bucket_ms INTEGER NOT NULL,
            \(columns.joined(separator: "\n"))
                hits INTEGER NOT NULL
            );
            CREATE INDEX \(table)_key ON \(table) (bucket_ms, \(dimensions.joined(separator: ", ")), hits);

            """
    }

    /// Brings the database to `currentVersion`: a new one (version 0) gets the current schema at
    /// once, an older one each migration after its version. A database from a newer build is refused
    /// rather than written with assumptions that may no longer hold.
    static func migrate(_ connection: SQLiteConnection) throws {
        var found = try connection.userVersion()
        guard found <= currentVersion else {
            throw LogError.schemaTooNew(path: connection.path, found: found, supported: currentVersion)
        }
        if found == 0 {
            try connection.transaction(.immediate) {
                // Another process may have made it while we waited for the lock.
                guard try connection.userVersion() == 0 else { return }
                try connection.execute(currentSchemaSQL)
                try connection.setUserVersion(currentVersion)
            }
            found = try connection.userVersion()
        }
        for migration in migrations where migration.version > found {
            try connection.transaction(.immediate) {
                // Another process (the server and a CLI reader) may have migrated while we waited for the lock.
                guard try connection.userVersion() == migration.version - 1 else { return }
                try migration.apply(connection)
                try connection.setUserVersion(migration.version)
            }
        }
    }

    /// Classifies the user agents of rows written before `client_class` existed, a chunk of rows at
    /// a time so memory stays flat on a large log.
    private static func backfillClientClass(_ connection: SQLiteConnection) throws {
        let select = try connection.prepare("SELECT id, user_agent FROM hits WHERE id > ?1 ORDER BY id LIMIT 10000")
        let update = try connection.prepare("UPDATE hits SET client_class = ?1 WHERE id = ?2")
        var lastID: Int64 = -1
        var classes: [String: ClientClass] = [:]
        while true {
            try select.bind(integer: lastID, at: 1)
            var chunk: [(id: Int64, userAgent: String?)] = []
            while try select.step() { chunk.append((select.int64(at: 0), select.text(at: 1))) }
            select.reset()
            guard let last = chunk.last else { return }
            for row in chunk {
                let key = row.userAgent ?? ""
                let clientClass = classes[key] ?? ClientClassifier.classify(row.userAgent)
                classes[key] = clientClass
                try update.bind(text: clientClass.rawValue, at: 1)
                try update.bind(integer: row.id, at: 2)
                _ = try update.step()
                update.reset()
            }
            lastID = last.id
            if classes.count > 50_000 { classes.removeAll(keepingCapacity: true) }
        }
    }
}
