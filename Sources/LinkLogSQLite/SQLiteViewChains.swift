internal import CSQLite
import LinkLog

/// How the SQLite log finds the latest view of an invite code without an index keyed by the code.
///
/// A B-tree keyed by the code puts every new code on a random leaf, which the writer finds, changes
/// and journals for each row: 4–7 µs a row whether the B-tree lives in the log, in a file without a
/// journal or in memory (docs/performance.md, "Where the index of views by code lives makes little
/// difference"). Instead each view with a code gets a row in `view_chain`, appended at the table's
/// end, linking it to older views whose code falls in the same one of `bucketCount` buckets; the
/// newest view of each bucket is kept here, in memory. A bucket's views form one chain, newest to
/// oldest by `(ts_ms, id)`: `prev` is the next older view of the bucket, `skip` the next older one
/// of another code, so a lookup of one code steps over a run of another's views at once (a code
/// viewed a million times a week shares its bucket with others). The lookup (`latestView`, which
/// `OpenCrediting.latestView` calls as the SQL function `linkhost_view_of_code`) walks from the
/// head, along `prev` on its own code's views and `skip` on others', until the views are older than
/// the pairing window; its first view of the code, site and rule is the latest.
///
/// A view older than its bucket's newest (rows reach the writer a little out of time order, and the
/// spool replays older ones) is spliced into its place, and the newer views whose `skip` passed over
/// that place now skip to it. Rows leave `view_chain` only by age, with the hits they belong to, so
/// a chain never loses a middle link: a link to a deleted row ends the walk where every older view
/// is gone too.
///
/// Every connection has one (`SQLiteConnection.viewChains`), loaded from `view_chain` the first
/// time it is asked and brought up to date from the chain's new rows on every lookup. A writer also
/// chains the views in `hits` past the id recorded in `meta` (`extend()`), in the transaction that
/// wrote them, so rows written by SQL alone (a test, a bulk load) are chained by the next writer.
package final class SQLiteViewChains {
    /// The buckets: 2^17, 4 MB of heads, their times, codes and skips in the writer's memory (at
    /// 2^18 the benchmark's peak was 60 of its 64 MB); one view a bucket at 131,072 views in a week,
    /// each further run of views in a bucket's week costing a lookup of another code one link read.
    package static let bucketCount = 1 << 17
    /// The table of links, one per view with a code; its id is the view's, `code` its code's
    /// `hash` (as a signed integer), which is what "the same code" means to the chains: views of
    /// two codes with one hash are one code's to them, and the lookup tells them apart by `hits`.
    static let createTableSQL =
        "CREATE TABLE IF NOT EXISTS view_chain (id INTEGER PRIMARY KEY, ts_ms INTEGER NOT NULL, code INTEGER NOT NULL, prev INTEGER, skip INTEGER)"
    /// The `meta` key of the highest `hits` id whose view, if any, is chained.
    static let throughKey = "view_chain_through"

    /// Not owned: the connection keeps this object, which runs only while the connection does.
    private unowned(unsafe) let connection: SQLiteConnection
    /// The newest view of each bucket (0 for none), its time and its code. Empty until first asked.
    private var heads: [Int64] = []
    private var headTimes: [Int64] = []
    private var headHashes: [UInt64] = []
    /// Where each head skips to: a new view of the head's code skips to the same place.
    private var headSkips: [Int64] = []
    /// The highest `view_chain` id the heads have taken in.
    private var known: Int64 = 0
    /// Whether the open transaction ran `extend()`: lookups in it need not look for new links, and
    /// a rollback of it must forget the heads.
    private var extendedInTransaction = false

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// A code's token hashed: FNV-1a over its bytes (the token is already a keyed hash).
    package static func hash(_ secret: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in secret.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }

    package static func bucket(ofHash hash: UInt64) -> Int {
        Int(hash % UInt64(bucketCount))
    }

    /// Registers the SQL function `linkhost_view_of_code(secret, ts_ms, site, rule)` (`latestView`)
    /// on the connection, and the hooks that tell when a transaction that chained views ends. The
    /// connection keeps this object as long as it is open.
    func register() {
        let this = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_create_function_v2(
            connection.handle, "linkhost_view_of_code", 4, SQLITE_UTF8, this,
            { context, _, arguments in
                let chains = Unmanaged<SQLiteViewChains>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                guard let arguments, let secret = SQLiteViewChains.text(arguments[0]), let time = arguments[1],
                    sqlite3_value_type(time) == SQLITE_INTEGER
                else {
                    sqlite3_result_null(context)
                    return
                }
                do {
                    let view = try chains.latestView(
                        secret: secret, time: sqlite3_value_int64(time), site: SQLiteViewChains.text(arguments[2]), rule: SQLiteViewChains.text(arguments[3]))
                    if let view { sqlite3_result_int64(context, view) } else { sqlite3_result_null(context) }
                } catch {
                    sqlite3_result_error(context, "linkhost_view_of_code: \(error)", -1)
                }
            }, nil, nil, nil)
        sqlite3_commit_hook(
            connection.handle,
            { data in
                Unmanaged<SQLiteViewChains>.fromOpaque(data!).takeUnretainedValue().extendedInTransaction = false
                return 0
            }, this)
        sqlite3_rollback_hook(
            connection.handle,
            { data in
                let chains = Unmanaged<SQLiteViewChains>.fromOpaque(data!).takeUnretainedValue()
                // The heads may name rows the rollback took away: read them again when next asked.
                if chains.extendedInTransaction { chains.invalidate() }
                chains.extendedInTransaction = false
            }, this)
    }

    private static func text(_ value: OpaquePointer?) -> String? {
        guard let value, sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    /// The latest view of `secret`, `site` and `rule` at most the pairing window before `time`:
    /// the walk from the code's bucket's head, along `prev` on the code's own views and `skip` on
    /// others'; each link is older than the last, so the first match is the latest.
    package func latestView(secret: String, time: Int64, site: String?, rule: String?) throws -> Int64? {
        // In the transaction that chained the newest views, nobody else can have added any.
        if !extendedInTransaction { try refresh() }
        let code = Self.hash(secret)
        var next = try link(heads[Self.bucket(ofHash: code)])
        while let current = next, current.time >= time - FunnelRow.pairingWindowMilliseconds {
            if current.code == code {
                if current.time <= time, try place(of: current.id) == Place(secret: secret, site: site, rule: rule, isPerson: true) {
                    return current.id
                }
                next = try link(current.prev)
            } else {
                next = try link(current.skip)
            }
        }
        return nil
    }

    /// What a view's row in `hits` must hold to pair with an open: the code, site and rule, and
    /// a person's client (a link preview's fetch of the code's page is no view; it stays in the
    /// chains, and is stepped over here).
    private struct Place: Equatable {
        let secret: String?
        let site: String?
        let rule: String?
        let isPerson: Bool
    }

    private static let notPeople = Set(ClientClass.notPeople.map(\.rawValue))

    private func place(of id: Int64) throws -> Place? {
        try connection.withCachedStatement("SELECT secret, site, rule, client_class FROM hits WHERE id = ?1") { row in
            try row.bind(integer: id, at: 1)
            guard try row.step() else { return nil }
            let isPerson = row.text(at: 3).map { !Self.notPeople.contains($0) } ?? true
            return Place(secret: row.text(at: 0), site: row.text(at: 1), rule: row.text(at: 2), isPerson: isPerson)
        }
    }

    /// Forgets the heads, which the next use reads again from `view_chain`: after a transaction
    /// that changed them was rolled back.
    private func invalidate() {
        heads = []
        headTimes = []
        headHashes = []
        headSkips = []
        known = 0
    }

    /// Takes in the `view_chain` rows past `known` (all of them the first time).
    private func refresh() throws {
        if heads.isEmpty {
            heads = Array(repeating: 0, count: Self.bucketCount)
            headTimes = Array(repeating: 0, count: Self.bucketCount)
            headHashes = Array(repeating: 0, count: Self.bucketCount)
            headSkips = Array(repeating: 0, count: Self.bucketCount)
            known = 0
        }
        try connection.withCachedStatement("SELECT id, ts_ms, code, skip FROM view_chain WHERE id > ?1 ORDER BY id") { rows in
            try rows.bind(integer: known, at: 1)
            while try rows.step() {
                let id = rows.int64(at: 0)
                let time = rows.int64(at: 1)
                let hash = UInt64(bitPattern: rows.int64(at: 2))
                let bucket = Self.bucket(ofHash: hash)
                if Self.precedes((headTimes[bucket], heads[bucket]), (time, id)) {
                    heads[bucket] = id
                    headTimes[bucket] = time
                    headHashes[bucket] = hash
                    headSkips[bucket] = rows.int64(at: 3)
                }
                known = id
            }
        }
    }

    /// Chains the views in `hits` past the recorded id. Runs inside the caller's write transaction
    /// (a rollback of it makes the heads be read again).
    package func extend() throws {
        defer { extendedInTransaction = connection.isInTransaction }
        try refresh()
        let recorded = try chainedThrough()
        var through = recorded
        // In chunks, so a log loaded by SQL (millions of views) is chained in flat memory.
        var views: [View] = []
        repeat {
            views.removeAll(keepingCapacity: true)
            try connection.withCachedStatement(
                """
                SELECT id, ts_ms, secret FROM hits
                WHERE id > ?1 AND kind = 'fallback' AND status = 200 AND secret IS NOT NULL ORDER BY id LIMIT \(Self.chunkSize)
                """
            ) { rows in
                try rows.bind(integer: through, at: 1)
                while try rows.step() {
                    views.append((rows.int64(at: 0), rows.int64(at: 1), rows.text(at: 2) ?? ""))
                }
            }
            for view in views { try link(view) }
            through = views.last?.id ?? through
        } while views.count == Self.chunkSize
        // Every view up to the last row is chained now, whatever rows came after the last view.
        guard let last = try connection.queryInteger("SELECT MAX(id) FROM hits"), last > recorded else { return }
        try setChainedThrough(last)
    }

    /// A view as the writer has it: its id, time and code's token.
    package typealias View = (id: Int64, time: Int64, secret: String)

    /// Chains the views of a batch the caller has just inserted as rows `rows` of `hits`, from the
    /// records rather than by reading `hits` again, when every row before the batch is chained;
    /// else as `extend()`. In the caller's write transaction.
    package func extend(batch views: [View], rows: ClosedRange<Int64>) throws {
        let recorded = try chainedThrough()
        guard recorded == rows.lowerBound - 1 else { return try extend() }
        defer { extendedInTransaction = connection.isInTransaction }
        try refresh()
        for view in views { try link(view) }
        try setChainedThrough(rows.upperBound)
    }

    /// The highest `hits` id whose view, if any, is chained (`throughKey` in `meta`).
    private func chainedThrough() throws -> Int64 {
        try connection.queryInteger("SELECT value FROM meta WHERE key = '\(Self.throughKey)'") ?? 0
    }

    private func setChainedThrough(_ id: Int64) throws {
        try connection.execute(
            "INSERT INTO meta (key, value) VALUES ('\(Self.throughKey)', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [.integer(id)])
    }

    /// Views read from `hits` at a time by `extend()`.
    private static let chunkSize = 10_000

    /// A link as `link` reads it; `nil` for a row gone (deleted by age).
    private struct Link {
        let id: Int64
        let time: Int64
        let code: UInt64
        let prev: Int64
        let skip: Int64

        /// Where a link to this one skips to from a view of `code`: past it when it is of the same
        /// code (to where it skips), else to it.
        func skip(from code: UInt64) -> Int64 {
            self.code == code ? skip : id
        }
    }

    private func link(_ id: Int64) throws -> Link? {
        guard id != 0 else { return nil }
        return try connection.withCachedStatement("SELECT ts_ms, code, prev, skip FROM view_chain WHERE id = ?1") { row in
            try row.bind(integer: id, at: 1)
            guard try row.step() else { return nil }
            return Link(id: id, time: row.int64(at: 0), code: UInt64(bitPattern: row.int64(at: 1)), prev: row.int64(at: 2), skip: row.int64(at: 3))
        }
    }

    /// Puts one view into its bucket's chain: at the head when it is the newest, else in its place.
    private func link(_ view: View) throws {
        let code = Self.hash(view.secret)
        let bucket = Self.bucket(ofHash: code)
        var head = heads[bucket]
        if head != 0, !Self.precedes((headTimes[bucket], head), (view.time, view.id)), try link(head) == nil {
            head = 0  // the head was deleted by age: the bucket starts again
        }
        if head == 0 || Self.precedes((headTimes[bucket], head), (view.time, view.id)) {
            // The common case, and free of lookups: a view of the head's code skips where the head
            // does, any other to the head.
            let skip = head != 0 && headHashes[bucket] == code ? headSkips[bucket] : head
            try insert(view.id, view.time, code, prev: head, skip: skip)
            heads[bucket] = view.id
            headTimes[bucket] = view.time
            headHashes[bucket] = code
            headSkips[bucket] = skip
        } else {
            // Older than the head: walk to the last link newer than it; every link passed whose
            // skip goes beyond the new view's place, and is of another code, now skips to it.
            var newer: [Link] = []
            var next = try link(head)
            while let current = next, Self.precedes((view.time, view.id), (current.time, current.id)) {
                newer.append(current)
                next = try link(current.prev)
            }
            guard let last = newer.last else { return }  // not reached: the head is newer and there
            let passed = Set(newer.map(\.id))
            try insert(view.id, view.time, code, prev: next?.id ?? 0, skip: next?.skip(from: code) ?? 0)
            try connection.execute("UPDATE view_chain SET prev = ?1 WHERE id = ?2", [.integer(view.id), .integer(last.id)])
            for link in newer where link.code != code && !passed.contains(link.skip) {
                try connection.execute("UPDATE view_chain SET skip = ?1 WHERE id = ?2", [.integer(view.id), .integer(link.id)])
                if link.id == head { headSkips[bucket] = view.id }
            }
        }
        known = max(known, view.id)
    }

    private func insert(_ id: Int64, _ time: Int64, _ code: UInt64, prev: Int64, skip: Int64) throws {
        try connection.execute(
            "INSERT INTO view_chain (id, ts_ms, code, prev, skip) VALUES (?1, ?2, ?3, ?4, ?5)",
            [.integer(id), .integer(time), .integer(Int64(bitPattern: code)), prev == 0 ? .null : .integer(prev), skip == 0 ? .null : .integer(skip)])
    }

    /// Whether `(time, id)` a comes before b: the order of the pairing's `ORDER BY ts_ms, id`. An
    /// empty bucket's head `(0, 0)` comes before every view.
    static func precedes(_ a: (Int64, Int64), _ b: (Int64, Int64)) -> Bool {
        a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
    }
}
