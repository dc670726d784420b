/// How one component fared against one URL, part by part, for explanations.
struct ComponentCheck {
    enum Part: String { case path, query, fragment }

    struct PartOutcome {
        let part: Part
        /// Whether the component constrains this part at all.
        let specified: Bool
        let matched: Bool
        /// What happened, for people: `query item "forumid" is absent; pattern "?*" needs at least one character`.
        let detail: String
    }

    let parts: [PartOutcome]
    /// Query items that held, for ranking near misses.
    let satisfiedQueryItems: Int
    /// What else decided a match besides the plain patterns (case folding), said after the parts.
    let notes: [String]

    init(parts: [PartOutcome], satisfiedQueryItems: Int, notes: [String] = []) {
        self.parts = parts
        self.satisfiedQueryItems = satisfiedQueryItems
        self.notes = notes
    }

    var matched: Bool { parts.allSatisfy(\.matched) }
    var matchedPartCount: Int { parts.count { $0.matched } }
    var pathMatched: Bool { parts.first { $0.part == .path }?.matched ?? true }

    /// The first failing part's detail, or the matched specified parts joined and the notes.
    var summary: String {
        if let failure = parts.first(where: { !$0.matched }) { return failure.detail }
        let specified = parts.filter(\.specified).map(\.detail)
        let text = specified.isEmpty ? "it constrains nothing, so every URL matches" : specified.joined(separator: "; ")
        return ([text] + notes).joined(separator: "; ")
    }

    /// Ranks near misses: the path matched, then more parts matched, then more query items held.
    func isCloser(than other: ComponentCheck) -> Bool {
        if pathMatched != other.pathMatched { return pathMatched }
        if matchedPartCount != other.matchedPartCount { return matchedPartCount > other.matchedPartCount }
        return satisfiedQueryItems > other.satisfiedQueryItems
    }

    /// Why `pattern` rejects an empty or absent value.
    static func emptyFailure(_ pattern: AASAPattern) -> String {
        if let problem = pattern.problem { return "pattern \"\(Elision.middle(pattern.source))\" can never match: \(problem)" }
        if pattern.isLiteral { return "pattern \"\(Elision.middle(pattern.source))\" expects exactly that text" }
        let needed = pattern.minimumLength
        return "pattern \"\(Elision.middle(pattern.source))\" needs at least \(needed == 1 ? "one character" : "\(needed) characters")"
    }

    /// Why `pattern` rejects a non-empty query string or fragment, after its text.
    static func wholeFailure(_ pattern: AASAPattern) -> String {
        if let problem = pattern.problem { return "does not match \"\(Elision.middle(pattern.source))\", which can never match: \(problem)" }
        return "does not match \"\(Elision.middle(pattern.source))\""
    }

    /// Why `pattern` rejects the non-empty `value` of a query item, after `is "value",`.
    static func valueFailure(_ pattern: AASAPattern) -> String {
        if let problem = pattern.problem { return "pattern \"\(Elision.middle(pattern.source))\" can never match: \(problem)" }
        return "which does not match \"\(Elision.middle(pattern.source))\""
    }
}
