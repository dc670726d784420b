/// Keeps every app open's credited view (`hits.view_id`) and the credit rollup (`CreditTable`) in
/// step as rows are written, in the writer's transaction. An open that reports a view token is
/// paired with exactly the view of that token (same site, at most `FunnelRow.pairingWindowMilliseconds`
/// before it), and only if it is the first open of that token: a token is credited to its view once,
/// and a later open with it (a copied link passed on) is an open of a shared link, left unpaired. An
/// open without a token is paired as before tokens existed: with the latest view of the same invite
/// code, site and rule in the window.
///
/// Both sides of a pairing are looked at, so the answer does not depend on the order rows arrive
/// in: a new app open is paired with the latest view already logged, and a new view takes over the
/// opens of its code that it is now the latest view for (a view replayed from a spool after the
/// open, rows written by two instances). What stays out of reach: a view and an open of one code
/// written at the same moment by two instances into PostgreSQL, each unseen by the other's
/// transaction; `linkhost rollup` pairs everything again.
package struct OpenCrediting {
    /// The rows a batch inserted that can change a pairing.
    package struct Inserted {
        /// Views (fallback pages served with 200) that carry a secret token or a view token.
        package var views: [Int64] = []
        /// App opens that carry a secret token or a view token.
        package var opens: [Int64] = []
        /// The view tokens of both, each once: the opens that carry one of them may be paired anew.
        package var tokens: [String] = []
        private var seenTokens: Set<String> = []

        package init() {}

        package var isEmpty: Bool { views.isEmpty && opens.isEmpty }

        /// Notes the row `id` when `record` is one that takes part in pairing.
        ///
        /// Given the record's place rather than the record: the writer notes every row it inserts,
        /// and passing the value copied all two dozen of its fields each time.
        package mutating func note(_ record: UnsafePointer<LogRecord>, id: Int64) {
            guard record.pointee.secretToken != nil || record.pointee.viewToken != nil else { return }
            if record.pointee.kind == "app_open" {
                opens.append(id)
            } else if record.pointee.kind == "fallback", record.pointee.status == 200 {
                views.append(id)
            } else {
                return
            }
            if let token = record.pointee.viewToken { noteToken(token) }
        }

        private mutating func noteToken(_ token: String) {
            if seenTokens.insert(token).inserted { tokens.append(token) }
        }

        /// The same as `note(_:id:)` in SQL, for an engine that reads inserted ids back unordered
        /// (`RETURNING`): the row's role (`'open'`, `'view'` or NULL) and its view token.
        package static let roleSQL =
            "CASE WHEN secret IS NULL AND view_token IS NULL THEN NULL WHEN kind = 'app_open' THEN 'open' WHEN kind = 'fallback' AND status = 200 THEN 'view' END, view_token"

        /// Notes the row `id` from what `roleSQL` read back for it.
        package mutating func note(role: SQLValue, token: SQLValue, id: Int64) {
            switch role {
            case .text("open"): opens.append(id)
            case .text("view"): views.append(id)
            default: return
            }
            if case .text(let token) = token { noteToken(token) }
        }
    }

    /// Ids per statement: well under both engines' parameter limits.
    private static let chunkSize = 400

    private let connection: any LogSQLConnection

    package init(connection: any LogSQLConnection) {
        self.connection = connection
    }

    /// How far an open reported by the app's clock may seem to come before the view whose token it
    /// carries: a phone's clock a little behind the server's (reports may be up to that far ahead).
    static let tokenClockSkewMilliseconds: Int64 = 5 * 60_000

    /// Rows that can be paired: app opens and views with an invite code's token or a view token.
    static let pairable = "(secret IS NOT NULL OR view_token IS NOT NULL)"

    /// The expression giving the credited view of the open aliased `opened`: by its view token when
    /// it has one, else by its invite code.
    static func latestView(_ dialect: any SQLDialect) -> String {
        let window = FunnelRow.pairingWindowMilliseconds
        let skew = tokenClockSkewMilliseconds
        return """
            CASE WHEN opened.view_token IS NOT NULL THEN
            (SELECT seen.id FROM hits AS seen
             WHERE seen.view_token = opened.view_token
               AND seen.ts_ms BETWEEN opened.ts_ms - \(window) AND opened.ts_ms + \(skew)
               AND seen.kind = 'fallback' AND seen.status = 200
               AND \(dialect.isNotDistinct("seen.site", "opened.site"))
               AND NOT EXISTS (SELECT 1 FROM hits AS earlier
                 WHERE earlier.view_token = opened.view_token AND earlier.kind = 'app_open'
                   AND \(dialect.isNotDistinct("earlier.site", "opened.site"))
                   AND earlier.ts_ms BETWEEN seen.ts_ms - \(skew) AND seen.ts_ms + \(window)
                   AND (earlier.ts_ms < opened.ts_ms OR (earlier.ts_ms = opened.ts_ms AND earlier.id < opened.id)))
             ORDER BY seen.ts_ms DESC, seen.id DESC
             LIMIT 1)
            ELSE
            \(latestViewOfCode(dialect))
            END
            """
    }

    /// The latest view of the open `opened`'s code, site and rule in the window before it, by a
    /// person (a chat app's preview fetch of the code's page is no view the open followed): through
    /// the index of views by code, or, in SQLite, through the chains of views by code, walked by
    /// the SQL function `linkhost_view_of_code` (`SQLiteViewChains.latestView`).
    private static func latestViewOfCode(_ dialect: any SQLDialect) -> String {
        let window = FunnelRow.pairingWindowMilliseconds
        guard dialect.findsViewsByCodeThroughChains else {
            return """
                (SELECT seen.id FROM hits AS seen
                 WHERE seen.secret = opened.secret
                   AND seen.ts_ms BETWEEN opened.ts_ms - \(window) AND opened.ts_ms
                   AND seen.kind = 'fallback' AND seen.status = 200 AND \(ClientClass.personCondition(on: "seen.client_class"))
                   AND \(dialect.isNotDistinct("seen.site", "opened.site")) AND \(dialect.isNotDistinct("seen.rule", "opened.rule"))
                 ORDER BY seen.ts_ms DESC, seen.id DESC
                 LIMIT 1)
                """
        }
        return "linkhost_view_of_code(opened.secret, opened.ts_ms, opened.site, opened.rule)"
    }

    /// The app opens that carry one of `tokens`: whose pairing a new view of the token, or a new
    /// first open of it, may change. Found through the index of app opens by token
    /// (`hits_open_token`), which holds app opens alone: for a new view (every person's view has a
    /// token) the answer is nearly always none, and that costs a probe of a small index.
    static func opensSharingTokens(_ tokens: [String], _ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue]) {
        var arguments = SQLArguments(dialect: dialect)
        let sql = """
            SELECT id FROM hits
            WHERE kind = 'app_open' AND \(dialect.isOneOf("view_token", .text, arguments.add(dialect.listValue(tokens.map(SQLValue.text)))))
            """
        return (sql, arguments.values)
    }

    /// The app opens of the same code, site and rule as the views `ids`, from each view's time to a
    /// pairing window after it: the opens a new view may now be the latest view for. Read through
    /// the index of app opens by code (`hits_open_secret`), never through every row of the code.
    static func opensAfterViews(_ ids: [Int64], _ dialect: any SQLDialect) -> (sql: String, arguments: [SQLValue]) {
        var arguments = SQLArguments(dialect: dialect)
        let sql = """
            SELECT opened.id FROM hits AS seen JOIN hits AS opened
              ON opened.secret = seen.secret AND opened.ts_ms BETWEEN seen.ts_ms AND seen.ts_ms + \(FunnelRow.pairingWindowMilliseconds)
             AND opened.kind = 'app_open' AND opened.secret IS NOT NULL
             AND \(dialect.isNotDistinct("opened.site", "seen.site")) AND \(dialect.isNotDistinct("opened.rule", "seen.rule"))
            WHERE \(dialect.isOneOf("seen.id", .integer, arguments.add(dialect.listValue(ids.map(SQLValue.integer)))))
            """
        return (sql, arguments.values)
    }

    /// How the rollups must change after a pairing: per grain and key, the credit rollup
    /// (`CreditTable.columns`), and per family and grain the hit rollups, where an open whose view
    /// changed moved to its new view's campaign (`OpenCampaign`). A count may be negative.
    package struct Changes {
        package var credits: [(grain: RollupGrain, changes: [RollupKey: Int64])] = []
        package var hits: [(set: RollupTableSet, grain: RollupGrain, counts: [RollupKey: Int64])] = []
    }

    /// Pairs the opens `inserted` touches again, sets their campaign by the rule (`OpenCampaign`)
    /// and returns how the rollups must change.
    package func update(for inserted: Inserted) throws -> Changes {
        guard !inserted.isEmpty else { return Changes() }
        var affected = Set(inserted.opens)
        for chunk in Self.chunks(inserted.views) {
            let (sql, arguments) = Self.opensAfterViews(Array(chunk), connection.dialect)
            try connection.query(sql, arguments) { row in
                if let id = row[0].integer { affected.insert(id) }
            }
        }
        for chunk in Self.chunks(inserted.tokens) {
            let (sql, arguments) = Self.opensSharingTokens(Array(chunk), connection.dialect)
            try connection.query(sql, arguments) { row in
                if let id = row[0].integer { affected.insert(id) }
            }
        }
        // Each affected open's view before and after, and how it came in (its `event`, which the
        // credit rollup files it under); only the ones that changed are written.
        var moved: [(open: Int64, from: Int64?, to: Int64?, event: SQLValue)] = []
        for chunk in Self.chunks(affected.sorted()) {
            var arguments = SQLArguments(dialect: connection.dialect)
            let sql = """
                SELECT opened.id, opened.view_id, \(Self.latestView(connection.dialect)), opened.event
                FROM hits AS opened WHERE opened.id IN (\(chunk.map { arguments.add(.integer($0)) }.joined(separator: ", ")))
                """
            try connection.query(sql, arguments.values) { row in
                guard let open = row[0].integer, row[1].integer != row[2].integer else { return }
                moved.append((open, row[1].integer, row[2].integer, row[3]))
            }
        }
        guard !moved.isEmpty else { return Changes() }
        for chunk in Self.chunks(moved) {
            var arguments = SQLArguments(dialect: connection.dialect)
            var cases = ""
            for change in chunk {
                // Typed, or PostgreSQL takes an untyped parameter in a CASE for text.
                cases += " WHEN \(arguments.add(.integer(change.open))) THEN CAST(\(arguments.add(change.to.map(SQLValue.integer) ?? .null)) AS BIGINT)"
            }
            let ids = chunk.map { arguments.add(.integer($0.open)) }.joined(separator: ", ")
            try connection.execute("UPDATE hits SET view_id = CASE id\(cases) END WHERE id IN (\(ids))", arguments.values)
        }
        let campaignChanges = try OpenCampaign(connection: connection).assign(moved.map(\.open))
        let hitChanges =
            campaignChanges.isEmpty
            ? [] : RollupTable.counts(fromFullHours: campaignChanges).map { ($0.set, $0.grain, $0.counts.filter { $0.value != 0 }) }
        // The views' buckets and fields, with the open's event in place of the view's: -1 where an
        // open left, +1 where it went.
        var delta: [Int64: [SQLValue: Int64]] = [:]
        for change in moved {
            if let from = change.from { delta[from, default: [:]][change.event, default: 0] -= 1 }
            if let to = change.to { delta[to, default: [:]][change.event, default: 0] += 1 }
        }
        var hours: [RollupKey: Int64] = [:]
        let columns = CreditTable.columns.joined(separator: ", ")
        for chunk in Self.chunks(delta.keys.sorted()) {
            var arguments = SQLArguments(dialect: connection.dialect)
            let sql = "SELECT id, ts_ms, \(columns) FROM hits WHERE id IN (\(chunk.map { arguments.add(.integer($0)) }.joined(separator: ", ")))"
            try connection.query(sql, arguments.values) { row in
                guard let id = row[0].integer, let time = row[1].integer, let counts = delta[id] else { return }
                for (event, count) in counts where count != 0 {
                    var values = Array(row[2...])
                    values[CreditTable.eventPosition] = event
                    hours[RollupKey(bucketStart: RollupGrain.hour.bucketStart(time), values: values), default: 0] += count
                }
            }
        }
        var days: [RollupKey: Int64] = [:]
        for (key, count) in hours { days[key.widened(to: .day), default: 0] += count }
        return Changes(credits: [(.hour, hours.filter { $0.value != 0 }), (.day, days.filter { $0.value != 0 })], hits: hitChanges)
    }

    private static func chunks<Element>(_ elements: [Element]) -> [ArraySlice<Element>] {
        stride(from: 0, to: elements.count, by: chunkSize).map { elements[$0..<min(elements.count, $0 + chunkSize)] }
    }
}
