import LinkLog

/// The User-Agent classifier against a plain reading of its own table (lower-case the ASCII
/// letters, look for each marker at every position), against itself with the letters' case
/// changed, against its naming of in-app browsers (named exactly when classified as one), and through `ClientClassCache`: the input holds two agents (split at the first NUL)
/// that one small cache classifies in turn, and the cache must say what the classifier says.
enum UserAgentFuzzing {
    static let target = FuzzTarget(
        name: "user-agent",
        summary: "ClientClassifier vs a plain reading of its table, ASCII case, and ClientClassCache agreement",
        maximumLength: 1024,
        run: run
    )

    static func run(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        let cache = ClientClassCache(capacity: 4)
        for agent in parts {
            let decided = ClientClassifier.classify(agent)
            FuzzReport.check(decided == reference(agent), "classified \(FuzzReport.shown(agent)) as \(decided), the table says \(reference(agent))")
            let upper = String(decoding: agent.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
            FuzzReport.check(ClientClassifier.classify(upper) == decided, "ASCII case changes the class of \(FuzzReport.shown(agent))")
            let app = ClientClassifier.inAppBrowser(agent)
            FuzzReport.check(
                (app != nil) == (decided == .inAppBrowser), "in-app browser \(app ?? "none") but class \(decided) for \(FuzzReport.shown(agent))")
            let cached = cache.classify(agent)
            FuzzReport.check(
                cached == decided, "the cache says \(cached), the classifier \(decided) for \(FuzzReport.shown(agent)) (after \(parts.map(FuzzReport.shown)))")
        }
    }

    /// The table read the plain way.
    private static func reference(_ agent: String) -> ClientClass {
        guard !agent.isEmpty else { return .unknown }
        let lowered = agent.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        // Every start compared slice by slice: plain enough to trust, and unlike the standard library's
        // generic `firstRange(of:)` (about 3 ms an input here) fast enough for a campaign.
        func contains(_ marker: [UInt8]) -> Bool {
            guard let first = marker.first, marker.count <= lowered.count else { return marker.isEmpty }
            return (0...(lowered.count - marker.count)).contains { start in
                lowered[start] == first && lowered[start..<start + marker.count].elementsEqual(marker)
            }
        }
        for rule in ClientClassifier.rules {
            let matched: Bool
            switch rule.needs {
            case .any: matched = rule.markers.contains(where: contains)
            case .all: matched = rule.markers.allSatisfy(contains)
            case .prefix: matched = rule.markers.contains { lowered.starts(with: $0) }
            }
            if matched { return rule.clientClass }
        }
        return .unknown
    }
}
