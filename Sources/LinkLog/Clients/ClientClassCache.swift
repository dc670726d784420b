import Glibc
import Synchronization

/// `ClientClassifier` with a memory: the same few user agents make most requests (and every request
/// of a keep-alive connection), and classifying one scans it for some ninety markers, so the answer
/// is kept. Bounded: a fixed table of slots, each agent in the slot its bytes hash to, replacing the
/// agent that was there. A collision costs at most a second classification, never a wrong answer.
public final class ClientClassCache: Sendable {
    /// One remembered agent with its class. The agent is kept to compare bytes on a hit: strings
    /// compare canonically equivalent text equal (U+037E GREEK QUESTION MARK is ";"), while the
    /// classifier reads bytes, and "…; wv)" is an in-app browser where "…\u{37E} wv)" is not.
    private struct Remembered {
        var agent: String
        var clientClass: ClientClass
    }

    private let slots: Mutex<[Remembered?]>
    /// The table's size less one (the size is a power of two).
    private let mask: UInt64
    /// Longer user agents are classified every time rather than remembered (they are rare, and a
    /// client sending random huge ones should not fill the memory).
    public static let maximumRememberedLength = 512

    /// - Parameter capacity: how many agents are remembered at most (rounded up to a power of two).
    public init(capacity: Int = 2048) {
        var size = 1
        while size < capacity { size *= 2 }
        slots = Mutex(Array(repeating: nil, count: size))
        mask = UInt64(size - 1)
    }

    /// The client class of `userAgent`, as `ClientClassifier.classify` decides it.
    public func classify(_ userAgent: String?) -> ClientClass {
        guard var agent = userAgent, !agent.isEmpty, agent.utf8.count <= Self.maximumRememberedLength else {
            return ClientClassifier.classify(userAgent)
        }
        let slot = Int(agent.withUTF8(Self.hash) & mask)
        let remembered = slots.withLock { table in
            table[slot].flatMap { $0.agent.hasSameUTF8(as: agent) ? $0.clientClass : nil }
        }
        if let remembered { return remembered }
        let decided = ClientClassifier.classify(agent)
        slots.withLock { $0[slot] = Remembered(agent: agent, clientClass: decided) }
        return decided
    }

    /// A quick hash of every byte, eight at a time. Not keyed, unlike `Hasher` (whose SipHash over a
    /// phone's long agent showed in every request's count): agents made to collide only
    /// take each other's slot, so the worst a client can do is have its agents classified again.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawBufferPointer(bytes)
        let multiplier: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
            hash ^= hash >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < raw.count {
            tail = tail << 8 | UInt64(raw[offset])
            offset += 1
        }
        hash = (hash ^ tail) &* multiplier
        return hash ^ (hash >> 29)
    }
}

extension String {
    /// Whether both strings hold exactly the same UTF-8 bytes. `==` compares canonical equivalence
    /// (U+212A KELVIN SIGN equals "K"), which is right for text but wrong for a cache of answers that
    /// depend on bytes. One `memcmp` over contiguous storage: it runs on every cache hit.
    package func hasSameUTF8(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
