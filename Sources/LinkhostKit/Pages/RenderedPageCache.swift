import HTTPServing
import LinkLog
import LinkRules
import Synchronization

/// Pages already rendered, as prepared responses, keyed by everything a page depends on: the site,
/// the host the links on it use, the language, the page variant (Android, desktop, standard) and
/// the request target as sent. A page is a pure function of those (the config does not change
/// while the server runs), so a repeated link — the same invitation opened by several people, a
/// preview bot and then a person — is answered without rendering, copying or allocating a body.
///
/// Bounded by entries and by the bytes of the bodies held (see `BoundedCache`).
final class RenderedPageCache: Sendable {
    struct Key: Hashable, Sendable {
        let site: String
        let host: String
        let language: String
        let target: String
        let variant: PageVariant
        /// Whether the page is made for a person, whose view of a link carries a token.
        let personal: Bool
        /// The fields' hash, worked out once: a new link's key is looked up in both of the cache's
        /// generations and then inserted, and hashing its target (a whole URL) each time was most of
        /// what the cache cost a new link's page.
        let fieldsHash: Int

        init(site: String, host: String, language: String, target: String, variant: PageVariant = .standard, personal: Bool = false) {
            self.site = site
            self.host = host
            self.language = language
            self.target = target
            self.variant = variant
            self.personal = personal
            var hasher = Hasher()
            hasher.combine(site)
            hasher.combine(host)
            hasher.combine(language)
            hasher.combine(target)
            hasher.combine(variant)
            hasher.combine(personal)
            fieldsHash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(fieldsHash)
        }

        static func == (left: Key, right: Key) -> Bool {
            left.fieldsHash == right.fieldsHash && left.target == right.target && left.site == right.site && left.host == right.host
                && left.language == right.language && left.variant == right.variant && left.personal == right.personal
        }
    }

    /// A cached page: a response sent as it is, or a link's page that gets each view's token.
    enum Page: Sendable {
        case prepared(PreparedResponse)
        case tokenized(TokenizedPage)

        /// The bytes it holds.
        var byteCount: Int {
            switch self {
            case .prepared(let response): response.body.count
            case .tokenized(let page): page.byteCount
            }
        }
    }

    /// What a cached page is: the page and what routing found, which the hit log needs.
    struct Entry: Sendable {
        let page: Page
        let kind: HitKind
        var rule: LinkRule? = nil
        var pathCaptures: [String: String] = [:]
        /// The target the page was made for, byte for byte (see `entry(for:)`).
        var target: String = ""
    }

    private let entries: BoundedCache<Key, Entry>
    /// The keys of pages asked for once and not kept, by hash: slot `hash % count` holds the last
    /// such key's hash (see `admits`).
    private let askedOnce: Mutex<[Int]>
    /// Slots of `askedOnce`: a page asked for again before this many other new pages is kept.
    static let askedOnceSlots = 16_384

    /// Targets longer than this are not cached (they are rare and would crowd out the rest).
    static let maximumTargetLength = 2048

    /// 8 MiB of bodies per site: in real traffic nearly every link is new (its own code or thread),
    /// and a new link's page is made from prepared parts for a few times a cached page's cost, so
    /// the cache pays for itself only on links opened again soon. At 32 MiB, a run of unique links
    /// took the server to 123 MB resident with two sites (the server's budget is 64 MB).
    init(capacity: Int = 4096, byteLimit: Int = 8 * 1024 * 1024) {
        entries = BoundedCache(capacity: capacity, costLimit: byteLimit) { $0.page.byteCount }
        askedOnce = Mutex([Int](repeating: 0, count: Self.askedOnceSlots))
    }

    /// Whether a page not in the cache should be kept once made: only from its second request on.
    /// In real traffic nearly every link is asked for once (its own code or thread), and keeping
    /// such a page cost its request a copy cut at the token's places, a cache insert, and memory
    /// held until evicted (a run of unique links filled the cache to its byte limit); a link opened
    /// again is kept at its second request and answered from the cache from its third. A key is
    /// remembered by its hash in a fixed table, so a collision at worst keeps a page early or late.
    func admits(_ key: Key) -> Bool {
        let slot = Self.askedOnceSlot(of: key)
        return askedOnce.withLock { table in
            if table[slot] == key.fieldsHash { return true }
            table[slot] = key.fieldsHash
            return false
        }
    }

    /// Where `admits` remembers `key`: its hash (seeded per process, as Swift's hashing is) modulo
    /// the table's size.
    static func askedOnceSlot(of key: Key) -> Int {
        Int(UInt(bitPattern: key.fieldsHash) % UInt(askedOnceSlots))
    }

    /// The page made for exactly this target. Keys compare targets as `String`s do, which takes
    /// canonically equivalent text as equal (U+212A KELVIN SIGN is "K", U+037E is ";"), yet such
    /// targets can route differently: `/addfriend?code=\u{212A}EST1` is a broken link and
    /// `/addfriend?code=KEST1` a page. So a hit counts only when the bytes are the same too, and a
    /// look-alike target can never put its page in front of a real link.
    func entry(for key: Key) -> Entry? {
        guard let entry = entries.value(for: key), entry.target.hasSameUTF8(as: key.target) else { return nil }
        return entry
    }

    func store(_ entry: Entry, for key: Key) {
        guard key.target.utf8.count <= Self.maximumTargetLength else { return }
        var entry = entry
        entry.target = key.target
        entries.store(entry, for: key)
    }

    /// Entries held now (both generations), for tests.
    var count: Int { entries.count }
}
