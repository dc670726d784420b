import HTTPServing
import Synchronization

/// Pages already rendered, as prepared responses, keyed by everything a page depends on: the site,
/// the host the links on it use, the language, and the request target as sent. A page is a pure
/// function of those (the config does not change while the server runs), so a repeated link — the
/// same invitation opened by several people, a preview bot and then a person — is answered without
/// rendering, copying or allocating a body.
///
/// Bounded two ways: at most `capacity` entries and `byteLimit` bytes of bodies. Eviction is a
/// cheap approximation of least-recently-used with two generations: inserts go to the young
/// generation; when it is full it becomes the old one (the previous old one is dropped); a hit in
/// the old generation is promoted. One mutex guards both; a lookup is one dictionary probe.
final class RenderedPageCache: Sendable {
    struct Key: Hashable, Sendable {
        let site: String
        let host: String
        let language: String
        let target: String
    }

    /// What a cached page is: the response and the facts the hit log needs.
    struct Entry: Sendable {
        let response: PreparedResponse
        let annotation: HitAnnotation
    }

    private struct Generations {
        var young: [Key: Entry] = [:]
        var old: [Key: Entry] = [:]
        var youngBytes = 0
    }

    private let state = Mutex(Generations())
    let capacity: Int
    let byteLimit: Int

    /// Targets longer than this are not cached (they are rare and would crowd out the rest).
    static let maximumTargetLength = 2048

    init(capacity: Int = 4096, byteLimit: Int = 32 * 1024 * 1024) {
        self.capacity = max(2, capacity)
        self.byteLimit = byteLimit
    }

    func entry(for key: Key) -> Entry? {
        state.withLock { generations in
            if let hit = generations.young[key] { return hit }
            guard let hit = generations.old.removeValue(forKey: key) else { return nil }
            insert(hit, for: key, into: &generations)
            return hit
        }
    }

    func store(_ entry: Entry, for key: Key) {
        guard key.target.utf8.count <= Self.maximumTargetLength else { return }
        state.withLock { insert(entry, for: key, into: &$0) }
    }

    /// Entries held now (both generations), for tests.
    var count: Int { state.withLock { $0.young.count + $0.old.count } }

    private func insert(_ entry: Entry, for key: Key, into generations: inout Generations) {
        if generations.young.count >= capacity / 2 || generations.youngBytes + entry.response.body.count > byteLimit / 2 {
            generations.old = generations.young
            generations.young = [:]
            generations.youngBytes = 0
        }
        generations.young[key] = entry
        generations.youngBytes += entry.response.body.count
    }
}
