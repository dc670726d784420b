/// Whole-rule questions for the validator: does one component cover another, does one open everything.
enum RuleCoverage {
    /// Whether every URL `later` matches is also matched by `earlier` (so `later` is unreachable).
    static func covers(_ earlier: CompiledComponent, _ later: CompiledComponent, budget: inout PatternInclusion.Budget) -> Bool {
        guard earlier.caseSensitive == later.caseSensitive, earlier.percentEncoded == later.percentEncoded else { return false }
        return covers(earlier.path, later.path, budget: &budget) && covers(earlier.query, later.query, budget: &budget)
            && covers(earlier.fragment, later.fragment, budget: &budget)
    }

    /// The tokens of a component's patterns, for sizing a `PatternInclusion.Budget`.
    static func tokenCount(of component: CompiledComponent) -> Int {
        let query: Int
        switch component.query {
        case .any, .ignored: query = 0
        case .string(let pattern): query = PatternInclusion.tokenCount(of: pattern)
        case .items(let items): query = items.reduce(0) { $0 + PatternInclusion.tokenCount(of: $1.pattern) }
        }
        return PatternInclusion.tokenCount(of: component.path) + query + PatternInclusion.tokenCount(of: component.fragment)
    }

    /// Whether the component opens every URL (a match rule with no effective constraint).
    static func isCatchAll(_ component: CompiledComponent) -> Bool {
        !component.exclude && matchesEveryURL(component)
    }

    /// Whether the component blocks every URL (an exclude rule with no effective constraint).
    static func isWholeSiteExclusion(_ component: CompiledComponent) -> Bool {
        component.exclude && matchesEveryURL(component)
    }

    private static func matchesEveryURL(_ component: CompiledComponent) -> Bool {
        (component.path?.matchesEverything ?? true) && acceptsEveryQuery(component.query) && (component.fragment?.matchesEverything ?? true)
    }

    private static func covers(_ earlier: AASAPattern?, _ later: AASAPattern?, budget: inout PatternInclusion.Budget) -> Bool {
        guard let earlier else { return true }
        guard let later else { return earlier.matchesEverything }
        return PatternInclusion.includes(earlier, later, budget: &budget)
    }

    private static func acceptsEveryQuery(_ query: CompiledQuery) -> Bool {
        switch query {
        case .any, .ignored: return true
        case .string(let pattern): return pattern.matchesEverything
        case .items(let items): return items.allSatisfy { $0.pattern.matchesEverything }
        }
    }

    private static func covers(_ earlier: CompiledQuery, _ later: CompiledQuery, budget: inout PatternInclusion.Budget) -> Bool {
        if acceptsEveryQuery(earlier) { return true }
        switch (earlier, later) {
        case (.string(let outer), .string(let inner)):
            return PatternInclusion.includes(outer, inner, budget: &budget)
        case (.items(let outer), .items(let inner)):
            // Each constraint of the earlier rule must be implied by one on the same name in the later
            // rule (an absent item reads as "", which the later pattern then accepts too).
            return outer.allSatisfy { constraint in
                constraint.pattern.matchesEverything
                    || inner.contains {
                        $0.comparedName == constraint.comparedName && PatternInclusion.includes(constraint.pattern, $0.pattern, budget: &budget)
                    }
            }
        default:
            return false
        }
    }
}
