/// The distinct links people used, kept as `LinkForm`s in a private file beside the log so a reload
/// answers a window of them without reading the window's rows: each form's distinct links and hits
/// per hour, brought up to date from the log's new rows (by id) every few seconds off the request
/// path. A reload then reads one row per form and hour, not a `GROUP BY` over every logged row —
/// what made a reload cost seconds with a large log.
///
/// A link counts in the hour it was last used (moving it on when it is used again), so the distinct
/// links of a window that starts at an hour are the sum of its forms' counts from that hour on. The
/// window begins on the hour: a reload looks a little further back than `checkAgainstLogDays` days.
/// The file is derived data: it may be deleted at any time (the next start fills it again from the
/// log), a backup need not keep it, and a log that is no longer the one it was filled from (a
/// restored backup, ids going back) is met by emptying it.
///
/// Not `Sendable`: both connections belong to whoever holds the window (one at a time).
public final class LinkWindow {
    /// The oldest hour kept: a window of at most a year (`checkAgainstLogDays` ≤ 365) and a day more.
    static let keptHours: Int64 = 366 * 24
    private static let millisecondsPerHour: Int64 = 3_600_000

    private let store: any LogSQLConnection
    private let log: any LogSQLConnection
    /// The highest log id taken in.
    public private(set) var through: Int64
    /// The hours below this are gone from the file.
    private var trimmedBelow: Int64
    /// Forms known this process, by key (the file's `window_forms`).
    private var formIDs: [String: Int64] = [:]

    /// Opens the window kept in `store` (creating its tables) for the log read through `log`.
    public init(store: any LogSQLConnection, log: any LogSQLConnection) throws {
        self.store = store
        self.log = log
        try store.writeTransaction {
            for statement in Self.schema { try store.execute(statement, []) }
        }
        through = try store.queryInteger("SELECT value FROM window_meta WHERE key = 'through'") ?? 0
        trimmedBelow = try store.queryInteger("SELECT value FROM window_meta WHERE key = 'trimmed_below'") ?? 0
    }

    static let schema = [
        "CREATE TABLE IF NOT EXISTS window_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID",
        // A link: its key (`Link.key`), its form and the hour it was last used.
        "CREATE TABLE IF NOT EXISTS window_links (link TEXT PRIMARY KEY, form INTEGER NOT NULL, hour INTEGER NOT NULL) WITHOUT ROWID",
        "CREATE INDEX IF NOT EXISTS window_links_hour ON window_links (hour)",
        """
        CREATE TABLE IF NOT EXISTS window_forms (id INTEGER PRIMARY KEY, form TEXT NOT NULL UNIQUE, site TEXT, host TEXT NOT NULL, \
        path TEXT NOT NULL, query TEXT, rule TEXT, old INTEGER NOT NULL, example TEXT NOT NULL)
        """,
        // Per form and hour: the links last used in that hour, and all the hits of the hour.
        """
        CREATE TABLE IF NOT EXISTS window_counts (form INTEGER NOT NULL, hour INTEGER NOT NULL, links INTEGER NOT NULL, \
        hits INTEGER NOT NULL, PRIMARY KEY (form, hour)) WITHOUT ROWID
        """,
    ]

    /// Takes in the log's rows past `through`, at most `limit` ids of them in one transaction of the
    /// window's file; returns whether rows are left to take (call again). `now` trims hours older than
    /// a year.
    @discardableResult
    public func absorb(limit: Int64 = 20_000, now: Int64) throws -> Bool {
        let newest = try log.queryInteger("SELECT MAX(id) FROM hits") ?? 0
        if newest < through {
            // Not the log the window was filled from (a restored backup): start again.
            try reset()
        }
        let upTo = min(newest, through + limit)
        guard upTo > through else {
            try trim(now: now)
            return false
        }
        let mark = try log.queryInteger("SELECT value FROM meta WHERE key = '\(HitTable.queriesKeptAfterIDKey)'")
        var arguments = SQLArguments(dialect: log.dialect)
        let low = arguments.add(.integer(through))
        let high = arguments.add(.integer(upTo))
        let kinds = LoggedLink.kinds.map { arguments.add(.text($0)) }.joined(separator: ", ")
        var batch = Batch()
        try log.query(
            "SELECT id, ts_ms, site, host, path, query, rule FROM hits WHERE id > \(low) AND id <= \(high) AND kind IN (\(kinds))",
            arguments.values
        ) { row in
            let id = row[0].integer ?? 0
            let link = Link(
                site: row[2].text, host: row[3].text ?? "", path: row[4].text ?? "", query: row[5].text, rule: row[6].text,
                old: mark.map { id <= $0 } ?? false)
            batch.add(link, hour: (row[1].integer ?? 0) / Self.millisecondsPerHour)
        }
        try store.writeTransaction {
            try write(batch)
            try store.execute(
                "INSERT INTO window_meta (key, value) VALUES ('through', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.integer(upTo)])
        }
        through = upTo
        return upTo < newest
    }

    /// Takes in every row the log holds now.
    public func catchUp(now: Int64) throws {
        while try absorb(now: now) {}
    }

    /// The forms used from `since` (the start of its hour) on, busiest first: a `LoggedLink` each,
    /// with its distinct links (`links`), hits and first link seen (`example`).
    public func forms(since: Int64) throws -> [LoggedLink] {
        var forms: [LoggedLink] = []
        try store.query(
            """
            SELECT f.site, f.host, f.path, f.query, f.rule, f.old, f.example, c.links, c.hits FROM \
            (SELECT form, SUM(links) AS links, SUM(hits) AS hits FROM window_counts WHERE hour >= ?1 GROUP BY form) AS c \
            JOIN window_forms AS f ON f.id = c.form WHERE c.hits > 0
            """,
            [.integer(since / Self.millisecondsPerHour)]
        ) { row in
            var form = LoggedLink(
                siteID: row[0].text, host: row[1].text ?? "", path: row[2].text ?? "", query: row[3].text, isBeforeQueries: row[5].integer == 1,
                rule: row[4].text, hits: Int(row[8].integer ?? 0))
            form.links = Int(row[7].integer ?? 0)
            form.example = row[6].text
            forms.append(form)
        }
        return forms.sorted { ($1.hits, $0.host, $0.path, $0.query ?? "") < ($0.hits, $1.host, $1.path, $1.query ?? "") }
    }

    /// A batch's links with their last hour, and the counts to add per form and hour.
    private struct Batch {
        var links: [String: (link: Link, hour: Int64)] = [:]
        /// In the order first met, so the file's rows are written alike each time.
        var order: [String] = []
        var hits: [String: [Int64: Int64]] = [:]

        mutating func add(_ link: Link, hour: Int64) {
            let key = link.key
            if let known = links[key] {
                if hour > known.hour { links[key]!.hour = hour }
            } else {
                links[key] = (link, hour)
                order.append(key)
            }
            hits[key, default: [:]][hour, default: 0] += 1
        }
    }

    private func write(_ batch: Batch) throws {
        var counts: [CountKey: (links: Int64, hits: Int64)] = [:]
        for key in batch.order {
            guard let (link, hour) = batch.links[key] else { continue }
            var known: (form: Int64, hour: Int64)?
            try store.query("SELECT form, hour FROM window_links WHERE link = ?1", [.text(key)]) { row in
                known = (row[0].integer ?? 0, row[1].integer ?? 0)
            }
            let form = try known?.form ?? formID(for: link)
            for (hitHour, hits) in batch.hits[key] ?? [:] {
                counts[CountKey(form: form, hour: hitHour), default: (0, 0)].hits += hits
            }
            if let known {
                // Used again in a later hour: the link now counts there.
                guard hour > known.hour else { continue }
                counts[CountKey(form: form, hour: known.hour), default: (0, 0)].links -= 1
            }
            counts[CountKey(form: form, hour: hour), default: (0, 0)].links += 1
            try store.execute(
                "INSERT INTO window_links (link, form, hour) VALUES (?1, ?2, ?3) ON CONFLICT (link) DO UPDATE SET hour = excluded.hour",
                [.text(key), .integer(form), .integer(hour)])
        }
        for (key, count) in counts.sorted(by: { ($0.key.form, $0.key.hour) < ($1.key.form, $1.key.hour) }) {
            try store.execute(
                """
                INSERT INTO window_counts (form, hour, links, hits) VALUES (?1, ?2, ?3, ?4) \
                ON CONFLICT (form, hour) DO UPDATE SET links = links + excluded.links, hits = hits + excluded.hits
                """,
                [.integer(key.form), .integer(key.hour), .integer(count.links), .integer(count.hits)])
        }
    }

    private struct CountKey: Hashable {
        let form: Int64
        let hour: Int64
    }

    /// The id of `link`'s form, made on first sight with `link` as its example.
    private func formID(for link: Link) throws -> Int64 {
        let path = LinkForm.path(link.path)
        let query = link.query.map(LinkForm.query)
        let key = Link(site: link.site, host: link.host, path: path, query: query, rule: link.rule, old: link.old).key
        if let id = formIDs[key] { return id }
        let id: Int64
        if let existing = try store.queryInteger("SELECT id FROM window_forms WHERE form = ?1", [.text(key)]) {
            id = existing
        } else {
            try store.execute(
                "INSERT INTO window_forms (form, site, host, path, query, rule, old, example) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                [
                    .text(key), SQLValue(link.site), .text(link.host), .text(path), SQLValue(query), SQLValue(link.rule), .integer(link.old ? 1 : 0),
                    .text(link.host + link.path + (link.query.map { "?" + $0 } ?? "")),
                ])
            id = try store.queryInteger("SELECT id FROM window_forms WHERE form = ?1", [.text(key)]) ?? 0
        }
        formIDs[key] = id
        return id
    }

    /// Drops the links and counts of hours older than a year, once a day.
    private func trim(now: Int64) throws {
        let below = now / Self.millisecondsPerHour - Self.keptHours
        guard below >= trimmedBelow + 24 else { return }
        try store.writeTransaction {
            // A link's count is in its last hour: both go together.
            try store.execute("DELETE FROM window_links WHERE hour < ?1", [.integer(below)])
            try store.execute("DELETE FROM window_counts WHERE hour < ?1", [.integer(below)])
            try store.execute(
                "INSERT INTO window_meta (key, value) VALUES ('trimmed_below', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [.integer(below)])
        }
        trimmedBelow = below
    }

    private func reset() throws {
        try store.writeTransaction {
            for table in ["window_meta", "window_links", "window_forms", "window_counts"] { try store.execute("DELETE FROM \(table)", []) }
        }
        formIDs = [:]
        through = 0
        trimmedBelow = 0
    }

    /// A logged link as the window tells links apart.
    private struct Link {
        let site: String?
        let host: String
        let path: String
        let query: String?
        let rule: String?
        let old: Bool

        /// One text for the file's keys: fields joined by a unit separator, an absent one empty and a
        /// present one prefixed, so no two links share a key.
        var key: String {
            func field(_ text: String?) -> String { text.map { "=" + $0 } ?? "" }
            return [field(site), host, path, field(query), field(rule), old ? "1" : "0"].joined(separator: "\u{1F}")
        }
    }
}
