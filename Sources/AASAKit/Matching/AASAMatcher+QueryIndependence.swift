extension AASAMatcher {
    /// Whether the file decides `url` the same whatever query it carries: in every entry, the first
    /// component whose path (and fragment) fit is one that accepts any query, or none fits. Legacy
    /// `paths` never read the query. This is how a link logged without its query can still be
    /// answered: only when its path alone decides.
    public func decidesWithoutQuery(_ url: AASAURL) -> Bool {
        let prepared = PreparedURL(url)
        for entry in entries {
            guard case .components(let components) = entry.rules else { continue }
            for component in components {
                let parts = prepared.parts(percentEncoded: component.percentEncoded)
                if let path = component.path, !path.matches(prepared: parts.path) { continue }
                if let fragment = component.fragment, !fragment.matches(prepared: parts.fragment) { continue }
                // The first component whose path fits decides for every query that it accepts, and
                // hands the others on: the query decides unless it accepts them all.
                guard component.query.acceptsEveryQuery else { return false }
                break
            }
        }
        return true
    }
}

extension CompiledQuery {
    /// Whether every query, none included, meets this rule (an absent item reads as "").
    fileprivate var acceptsEveryQuery: Bool {
        switch self {
        case .any, .ignored: true
        case .string(let pattern): pattern.matchesEverything
        case .items(let constraints): constraints.allSatisfy(\.pattern.matchesEverything)
        }
    }
}
