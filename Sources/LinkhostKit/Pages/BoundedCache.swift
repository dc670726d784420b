import Synchronization

/// A thread-safe memory of computed values, bounded two ways: at most `capacity` entries and
/// `costLimit` in the sum of the entries' costs (bytes, say). Eviction is a cheap approximation of
/// least-recently-used with two generations: inserts go to the young generation; when it is full it
/// becomes the old one (the previous old one is dropped); a hit in the old generation is promoted.
/// One mutex guards both; a lookup is one dictionary probe.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Generations: Sendable {
        var young: [Key: Value] = [:]
        var old: [Key: Value] = [:]
        var youngCost = 0
    }

    private let state = Mutex(Generations())
    let capacity: Int
    let costLimit: Int
    private let cost: @Sendable (Value) -> Int

    init(capacity: Int, costLimit: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.capacity = max(2, capacity)
        self.costLimit = costLimit
        self.cost = cost
    }

    func value(for key: Key) -> Value? {
        state.withLock { generations in
            if let hit = generations.young[key] { return hit }
            guard let hit = generations.old.removeValue(forKey: key) else { return nil }
            insert(hit, for: key, into: &generations)
            return hit
        }
    }

    func store(_ value: Value, for key: Key) {
        state.withLock { insert(value, for: key, into: &$0) }
    }

    /// Entries held now (both generations), for tests.
    var count: Int { state.withLock { $0.young.count + $0.old.count } }

    private func insert(_ value: Value, for key: Key, into generations: inout Generations) {
        let valueCost = cost(value)
        if generations.young.count >= capacity / 2 || generations.youngCost + valueCost > costLimit / 2 {
            generations.old = generations.young
            generations.young = [:]
            generations.youngCost = 0
        }
        generations.young[key] = value
        generations.youngCost += valueCost
    }
}
