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
    /// The forms this process has seen in the file's `window_forms`, by id.
    private var knownForms: Set<Int64> = []
    /// The secret the file's link and form ids are hashed under (`SipHasher`).
    private let key: (UInt64, UInt64)

    /// Opens the window kept in `store` (creating its tables) for the log read through `log`.
    public init(store: any LogSQLConnection, log: any LogSQLConnection) throws {
        self.store = store
        self.log = log
        key = try store.writeTransaction {
            try store.execute(Self.metaTable, [])
            if try store.queryInteger("SELECT value FROM window_meta WHERE key = 'version'") != Self.version {
                // Another layout (text keys before version 2): derived data, so start it again.
                for table in ["window_links", "window_forms", "window_counts"] { try store.execute("DROP TABLE IF EXISTS \(table)", []) }
                try store.execute("DELETE FROM window_meta", [])
                var random = SystemRandomNumberGenerator()
                let meta: [(String, Int64)] = [
                    ("version", Self.version), ("key0", Int64(bitPattern: random.next())), ("key1", Int64(bitPattern: random.next())),
                ]
                for (name, value) in meta {
                    try store.execute("INSERT INTO window_meta (key, value) VALUES (?1, ?2)", [.text(name), .integer(value)])
                }
            }
            for statement in Self.schema { try store.execute(statement, []) }
            let key0 = try store.queryInteger("SELECT value FROM window_meta WHERE key = 'key0'") ?? 0
            let key1 = try store.queryInteger("SELECT value FROM window_meta WHERE key = 'key1'") ?? 0
            return (UInt64(bitPattern: key0), UInt64(bitPattern: key1))
        }
        through = try store.queryInteger("SELECT value FROM window_meta WHERE key = 'through'") ?? 0
        trimmedBelow = try store.queryInteger("SELECT value FROM window_meta WHERE key = 'trimmed_below'") ?? 0
    }

    /// The file's layout: links and forms filed by 64-bit keyed hashes (`SipHasher`) since 2, which
    /// made taking in a new link one short statement on an integer key instead of a lookup and an
    /// upsert on its text.
    static let version: Int64 = 2

    static let metaTable = "CREATE TABLE IF NOT EXISTS window_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID"

    static let schema = [
        // A link: its id (`Link.id`), its form's id, the hour it was last used and, after a move,
        // the hour it was last used before (so the move's one statement says where it came from).
        "CREATE TABLE IF NOT EXISTS window_links (link INTEGER PRIMARY KEY, form INTEGER NOT NULL, hour INTEGER NOT NULL, previous INTEGER)",
        // No index by hour: a link's key is random, so one would cost each new link a second
        // random leaf, to spare a daily trim that reads the table once.
        // A form: its id (`Link.formID`), its fields and the first link of it met.
        """
        CREATE TABLE IF NOT EXISTS window_forms (id INTEGER PRIMARY KEY, site TEXT, host TEXT NOT NULL, \
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
            batch.add(link, hour: (row[1].integer ?? 0) / Self.millisecondsPerHour, key: key)
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

    /// A batch's links with their form and last hour, and the hits to add per form and hour.
    private struct Batch {
        var links: [Int64: (link: Link, form: Int64, hour: Int64)] = [:]
        /// In the order first met, so the file's rows are written alike each time.
        var order: [Int64] = []
        var hits: [CountKey: Int64] = [:]

        mutating func add(_ link: Link, hour: Int64, key: (UInt64, UInt64)) {
            let id = link.id(key: key)
            let form: Int64
            if let known = links[id] {
                form = known.form
                if hour > known.hour { links[id]!.hour = hour }
            } else {
                form = link.formID(key: key)
                links[id] = (link, form, hour)
                order.append(id)
            }
            hits[CountKey(form: form, hour: hour), default: 0] += 1
        }
    }

    private func write(_ batch: Batch) throws {
        var counts: [CountKey: (links: Int64, hits: Int64)] = [:]
        for (key, hits) in batch.hits { counts[key, default: (0, 0)].hits += hits }
        for id in batch.order {
            guard let (link, form, hour) = batch.links[id] else { continue }
            if !knownForms.contains(form) { try file(form, of: link) }
            // A new link is one plain insert, the usual case for a link seen once; a known one is
            // moved on only when used in a later hour, `previous` taking the hour it moves from
            // (SQLite's UPDATE reads the row as it was on the right-hand side).
            let inserted = try store.execute(
                "INSERT OR IGNORE INTO window_links (link, form, hour) VALUES (?1, ?2, ?3)", [.integer(id), .integer(form), .integer(hour)])
            if inserted == 0 {
                var previous: Int64?
                try store.query(
                    "UPDATE window_links SET previous = hour, hour = ?2 WHERE link = ?1 AND hour < ?2 RETURNING previous",
                    [.integer(id), .integer(hour)]
                ) { row in previous = row[0].integer }
                // Used again in the same hour or before: it counts where it was.
                guard let previous else { continue }
                counts[CountKey(form: form, hour: previous), default: (0, 0)].links -= 1
            }
            counts[CountKey(form: form, hour: hour), default: (0, 0)].links += 1
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

    /// Files the form `form` (met first in `link`, its example) unless the file has it.
    private func file(_ form: Int64, of link: Link) throws {
        try store.execute(
            """
            INSERT INTO window_forms (id, site, host, path, query, rule, old, example) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
            ON CONFLICT (id) DO NOTHING
            """,
            [
                .integer(form), SQLValue(link.site), .text(link.host), .text(LinkForm.path(link.path)), SQLValue(link.query.map(LinkForm.query)),
                SQLValue(link.rule), .integer(link.old ? 1 : 0), .text(link.host + link.path + (link.query.map { "?" + $0 } ?? "")),
            ])
        knownForms.insert(form)
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
            for table in ["window_links", "window_forms", "window_counts"] { try store.execute("DELETE FROM \(table)", []) }
            try store.execute("DELETE FROM window_meta WHERE key IN ('through', 'trimmed_below')", [])
        }
        knownForms = []
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

        /// The link's id in the file: its fields hashed under the file's `key`, each one marked
        /// apart (`SipHasher.append(field:)`), so two links share an id only by a 64-bit collision.
        func id(key: (UInt64, UInt64)) -> Int64 {
            var hasher = SipHasher(key0: key.0, key1: key.1)
            hasher.append(field: path)
            hasher.append(field: query)
            appendRest(to: &hasher)
            return Int64(bitPattern: hasher.finalize())
        }

        /// The id of the link's form (`LinkForm`), made without the form's text.
        func formID(key: (UInt64, UInt64)) -> Int64 {
            var hasher = SipHasher(key0: key.0, key1: key.1)
            LinkForm.append(formOf: path, isQuery: false, to: &hasher)
            hasher.append(0xFF)
            if let query {
                LinkForm.append(formOf: query, isQuery: true, to: &hasher)
                hasher.append(0xFF)
            } else {
                hasher.append(0xFE)
            }
            appendRest(to: &hasher)
            return Int64(bitPattern: hasher.finalize())
        }

        private func appendRest(to hasher: inout SipHasher) {
            hasher.append(field: site)
            hasher.append(field: host)
            hasher.append(field: rule)
            hasher.append(old ? 1 : 0)
        }
    }
}
