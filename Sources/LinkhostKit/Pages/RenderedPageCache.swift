import HTTPServing
import LinkRules

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
        var variant: PageVariant = .standard
    }

    /// What a cached page is: the response and what routing found, which the hit log needs.
    struct Entry: Sendable {
        let response: PreparedResponse
        let kind: HitKind
        var rule: LinkRule? = nil
        var pathCaptures: [String: String] = [:]
    }

    private let entries: BoundedCache<Key, Entry>

    /// Targets longer than this are not cached (they are rare and would crowd out the rest).
    static let maximumTargetLength = 2048

    init(capacity: Int = 4096, byteLimit: Int = 32 * 1024 * 1024) {
        entries = BoundedCache(capacity: capacity, costLimit: byteLimit) { $0.response.body.count }
    }

    func entry(for key: Key) -> Entry? { entries.value(for: key) }

    func store(_ entry: Entry, for key: Key) {
        guard key.target.utf8.count <= Self.maximumTargetLength else { return }
        entries.store(entry, for: key)
    }

    /// Entries held now (both generations), for tests.
    var count: Int { entries.count }
}
