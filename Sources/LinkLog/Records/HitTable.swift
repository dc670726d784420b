/// The hits table, declared once: each column with the `LogRecord` field it holds (whose Swift type
/// gives its SQL type), the schema version that added it and how a listing shows it, then the
/// indexes. Everything else about the table is derived from this: the schema of a new database
/// (`SQLiteLogSchema`, `PostgreSQLLogSchema`), the writer's insert and the spool's columns
/// (`LogRecord.columnValues`), reading rows back (`LogRow`), the columns a listing offers
/// (`HitColumn`), capping texts (`LogRecord.capText`) and the query parameters kept in columns of
/// their own (`LogRecord.takeParameters`).
///
/// Adding a column is its field on `LogRecord` and one line here, with the next schema version, plus
/// a migration in each engine's schema that adds it to the databases already out there. The line's
/// place is where listings show the column; in the table itself columns stand in the order they were
/// added, as migrations leave them. Published versions never change: a column's line keeps the
/// version that added it.
package enum HitTable {
    /// The columns, in the order listings show them.
    package static let columns: [Column] = [
        Column(rowID: "id", listing: .shown(.never)),
        Column("ts_ms", \.timestampMilliseconds, listing: .timestamp(readableAs: "time")),
        Column("site", \.siteID, listing: .shown(.last)),
        Column("host", \.host, listing: .shown(.late)),
        Column("method", \.method, listing: .shown(.last)),
        Column("path", \.path, listing: .shown(.normal)),
        // Listed when asked for by name, so listings keep the columns they always showed.
        Column("query", \.query, since: 7, listing: .onRequest(.late)),
        Column("kind", \.kind, listing: .shown(.last)),
        Column("rule", \.rule, listing: .shown(.late)),
        Column("status", \.status, listing: .shown(.never)),
        Column("duration_us", \.durationMicroseconds, listing: .shown(.never)),
        Column("utm_source", \.utmSource, listing: .shown(.normal), fromQuery: true),
        Column("utm_medium", \.utmMedium, listing: .shown(.normal), fromQuery: true),
        Column("utm_campaign", \.utmCampaign, listing: .shown(.normal), fromQuery: true),
        Column("utm_term", \.utmTerm, listing: .shown(.normal), fromQuery: true),
        Column("utm_content", \.utmContent, listing: .shown(.normal), fromQuery: true),
        Column("params", \.trackedParameters, since: 2, listing: .shown(.first)),
        Column("referrer", \.referrer, listing: .shown(.first)),
        Column("referrer_host", \.referrerHost, since: 8, listing: .onRequest(.normal)),
        Column("user_agent", \.userAgent, listing: .shown(.first)),
        Column("client_class", \.clientClass, since: 2, listing: .shown(.last)),
        Column("in_app", \.inApp, since: 8, listing: .onRequest(.last)),
        Column("client_addr", \.clientAddress, listing: .shown(.normal)),
        Column("event", \.event, since: 4, listing: .shown(.last)),
        // There for the funnel's pairing, not for reading: listed only when asked for by name.
        Column("secret", \.secretToken, since: 4, listing: .onRequest(.normal)),
        Column(keptByWriter: "view_id", .bigInteger, since: 6),
        // A token per view, which pairs the view with an app open exactly.
        Column("view_token", \.viewToken, since: 8, listing: .onRequest(.normal)),
        // Which app or crawler a row no person caused came from (`ClientClassifier.previewApp`),
        // filled by the writer from the User-Agent: not on the record, so the journal's layout stays.
        Column(keptByWriter: "preview_app", .text, since: 11),
    ]

    /// The indexes. They span columns and most hold only some rows, so they are declared beside the
    /// columns rather than as a mark on one: the time index serves time ranges (the cut hours at the
    /// ends of a statistic's range, listings); the one of views by code the pairing by code; the
    /// two of app opens alone the pairing's lookups from a view (`OpenCrediting`), and `hits_view`
    /// the opens credited to a view. Rows without a value stay out of an index that never looks
    /// them up: every index a row enters costs the writer about as much as the row itself.
    package static let indexes: [Index] = [
        Index("hits_time", on: ["ts_ms"]),
        // Views alone (schema version 9): the pairing looks a code up among views only. With app
        // opens in it too, an open of a code opened many times before walked back over all those
        // opens to reach a view, and each open of a new code wrote a second random leaf. Not in
        // SQLite (schema version 10), which finds views by code through chains instead.
        Index("hits_view_secret", on: ["secret", "ts_ms"], where: "kind = 'fallback' AND status = 200 AND secret IS NOT NULL", inSQLite: false),
        Index("hits_open_time", on: ["ts_ms"], where: "kind = 'app_open' AND secret IS NOT NULL"),
        Index("hits_view", on: ["view_id"], where: "view_id IS NOT NULL"),
        Index("hits_open_secret", on: ["secret", "ts_ms"], where: "kind = 'app_open' AND secret IS NOT NULL"),
        // A view's token, for the open that reports it; an open's, for a new view or an earlier open
        // of the same token. Apart, so the second stays as small as the opens are few.
        Index("hits_view_token", on: ["view_token"], where: "kind = 'fallback' AND view_token IS NOT NULL"),
        Index("hits_open_token", on: ["view_token", "ts_ms"], where: "kind = 'app_open' AND view_token IS NOT NULL"),
        // The bypass opens paired with a view, by time: the dashboard's links that did not open the
        // app read them, and they are rare (a row enters it when the writer pairs it).
        Index("hits_bypass_time", on: ["ts_ms"], where: "kind = 'app_open' AND event = 'custom-scheme' AND view_id IS NOT NULL"),
    ]

    /// The table's name.
    package static let name = "hits"

    /// The `meta` key counting records the journal could not take (full, or its write failed).
    package static let droppedRecordsKey = "dropped_records"

    /// The `meta` key counting rows the database refused for a value (PostgreSQL: a NUL in a text).
    package static let refusedRecordsKey = "refused_records"

    /// The `meta` key holding the largest row id written before the log kept queries (schema version
    /// 7); absent in a log made at version 7 or later, where every row has its query.
    package static let queriesKeptAfterIDKey = "queries_kept_after_id"

    /// The last row logged before the campaign rule and `preview_app` (schema version 11), kept in
    /// `meta` until `linkhost rollup` has brought the rows up to that id to both.
    package static let rebuildPendingThroughKey = "rebuild_pending_through_id"

    /// The `meta` key of a backup's copy (`LogBackup`): when its moment was, UTC milliseconds. The
    /// writer that opens the copy restored says so, with where the copy and the journal stand, and
    /// deletes it.
    package static let backupTakenKey = "backup_taken_ms"

    // MARK: Derived

    /// The columns a record fills, in declaration order: the writer's insert, the spool's rows and
    /// `LogRecord.columnValues`.
    package static let recordColumns = columns.filter { $0.field.isOnRecord }

    /// Their names, in that order.
    package static let recordColumnNames = recordColumns.map(\.name)

    /// Their fields alone (plain numbers, no names), for the loops that run per row.
    package static let recordFields = recordColumns.map(\.field)

    /// The columns a reader selects for `LogRow`: the id, then `recordColumns`.
    package static let rowColumns = columns.filter { $0.field == .rowID } + recordColumns

    /// Their fields, in that order.
    package static let rowFields = rowColumns.map(\.field)

    /// `rowColumns` as a select list.
    package static let rowSelectList = rowColumns.map(\.name).joined(separator: ", ")

    /// Where a record's texts are, which `LogRecord.capText` caps: every one comes from the request,
    /// which the client controls. `String` fields, then `String?` ones.
    package static let cappedTextOffsets = recordFields.compactMap { field -> Int? in
        if case .text(let offset) = field { offset } else { nil }
    }
    /// The bytes a record's journal form gives its integers (8 each), whatever the record.
    package static let journalIntegerBytes = recordFields.reduce(0) { size, field in
        switch field {
        case .integer, .int: size + 8
        default: size
        }
    }
    package static let cappedOptionalTextOffsets = recordFields.compactMap { field -> Int? in
        if case .optionalText(let offset) = field { offset } else { nil }
    }

    /// The query parameters with a column of their own (`utm_*`), and where in a record each goes
    /// (`offsets`, in the order of `names`). Two arrays in one value: looking a name up compares it
    /// with each name in place, which a list of pairs would copy out one by one, and one value is
    /// one check that it is made, per logged request with a query.
    package static let queryParameters: (names: [String], offsets: [Int]) = (
        columns.filter(\.isFromQuery).map(\.name),
        columns.filter(\.isFromQuery).map { column -> Int in
            guard case .optionalText(let offset) = column.field else { preconditionFailure("\(column.name): a query parameter fills a String? field") }
            return offset
        }
    )

    /// `CREATE TABLE` for the current version, each column spelled by `definition` (its engine's
    /// type and constraints), in the order the versions added them, as a migrated table has them.
    package static func createTableSQL(_ definition: (Column) -> String) -> String {
        let added = columns.enumerated().sorted { ($0.element.since, $0.offset) < ($1.element.since, $1.offset) }.map(\.element)
        return "CREATE TABLE \(name) (\n" + added.map { "    \($0.name) \(definition($0))" }.joined(separator: ",\n") + "\n)"
    }
}
