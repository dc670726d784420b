/// A set of automaton states that clears in constant time: membership is a per-state generation
/// stamp, and the members list keeps insertion order for the next step.
struct NFAStateSet {
    private var stamps: [UInt32]
    private var generation: UInt32 = 1
    private(set) var members: [Int32] = []

    init(capacity: Int) {
        stamps = Array(repeating: 0, count: capacity)
    }

    /// Inserts `state`; `false` when it was already present in this generation.
    mutating func insert(_ state: Int) -> Bool {
        guard stamps.indices.contains(state), stamps[state] != generation else { return false }
        stamps[state] = generation
        members.append(Int32(truncatingIfNeeded: state))
        return true
    }

    /// Removes the most recent member from the list but keeps it marked as visited, so epsilon
    /// states (forks and jumps) are not walked twice yet never show up as members.
    mutating func dropLast() {
        _ = members.popLast()
    }

    mutating func removeAll() {
        members.removeAll(keepingCapacity: true)
        if generation == UInt32.max {
            for index in stamps.indices { stamps[index] = 0 }
            generation = 1
        } else {
            generation += 1
        }
    }
}
