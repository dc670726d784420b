import Synchronization

/// `ClientClassifier` with a memory: the same few user agents make most requests (and every request
/// of a keep-alive connection), and classifying one scans it for some ninety markers, so the answer
/// is kept. Bounded: when `capacity` agents are remembered the memory starts over.
public final class ClientClassCache: Sendable {
    /// Each remembered agent with its class. The agent is kept to compare bytes on a hit: a
    /// dictionary finds canonically equivalent strings equal (U+037E GREEK QUESTION MARK is ";"),
    /// while the classifier reads bytes, and "…; wv)" is an in-app browser where "…\u{37E} wv)" is not.
    private let known = Mutex<[String: (agent: String, clientClass: ClientClass)]>([:])
    private let capacity: Int
    /// Longer user agents are classified every time rather than remembered (they are rare, and a
    /// client sending random huge ones should not fill the memory).
    public static let maximumRememberedLength = 512

    public init(capacity: Int = 2048) {
        self.capacity = max(1, capacity)
    }

    /// The client class of `userAgent`, as `ClientClassifier.classify` decides it.
    public func classify(_ userAgent: String?) -> ClientClass {
        guard let userAgent, !userAgent.isEmpty, userAgent.utf8.count <= Self.maximumRememberedLength else {
            return ClientClassifier.classify(userAgent)
        }
        if let remembered = known.withLock({ $0[userAgent] }), remembered.agent.hasSameUTF8(as: userAgent) { return remembered.clientClass }
        let decided = ClientClassifier.classify(userAgent)
        known.withLock { table in
            if table.count >= capacity { table.removeAll(keepingCapacity: true) }
            table[userAgent] = (userAgent, decided)
        }
        return decided
    }
}
