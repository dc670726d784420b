/// A component's `?` rule, compiled.
enum CompiledQuery: Sendable {
    /// Unspecified, or a dictionary iOS ignores: any query matches.
    case any
    /// A dictionary voided by a non-string predicate (kept apart to explain it).
    case ignored(offendingName: String)
    case string(AASAPattern)
    case items([CompiledQueryItem])

    /// A query item constraint.
    struct CompiledQueryItem: Sendable {
        let name: String
        /// The name as compared: folded when the rule ignores case.
        let comparedName: String
        let pattern: AASAPattern
    }

    init(_ query: AASAQueryPattern?, caseSensitive: Bool, variables: AASASubstitutionVariables) {
        switch query {
        case nil:
            self = .any
        case .ignoredDictionary(let name):
            self = .ignored(offendingName: name)
        case .string(let source):
            self = .string(AASAPattern(source, caseSensitive: caseSensitive, variables: variables))
        case .items(let items):
            self = .items(
                items.map { item in
                    CompiledQueryItem(
                        name: item.name, comparedName: caseSensitive ? item.name : CaseFolding.fold(item.name),
                        pattern: AASAPattern(item.pattern, caseSensitive: caseSensitive, variables: variables))
                })
        }
    }

    /// Decision: under `caseSensitive: false` item names fold too, like everything else the
    /// rule compares; every occurrence of a repeated name must match, and an absent item reads as "".
    func matches(_ parts: PreparedURL.Parts, caseSensitive: Bool) -> Bool {
        switch self {
        case .any, .ignored: return true
        case .string(let pattern): return pattern.matches(prepared: parts.query)
        case .items(let constraints):
            for constraint in constraints where !Self.occurrences(of: constraint, in: parts, caseSensitive: caseSensitive).allMatch {
                return false
            }
            return true
        }
    }

    /// The values of the named item, checked against its pattern.
    static func occurrences(of constraint: CompiledQueryItem, in parts: PreparedURL.Parts, caseSensitive: Bool) -> ItemOutcome {
        var values: [PreparedURL.QueryItem] = []
        for item in parts.items where (caseSensitive ? item.name : CaseFolding.fold(item.name)) == constraint.comparedName {
            values.append(item)
        }
        if values.isEmpty {
            return ItemOutcome(count: 0, firstFailure: constraint.pattern.matches(prepared: []) ? nil : (0, ""))
        }
        for (position, item) in values.enumerated() where !constraint.pattern.matches(prepared: item.valueScalars) {
            return ItemOutcome(count: values.count, firstFailure: (position, item.value ?? ""))
        }
        return ItemOutcome(count: values.count, firstFailure: nil)
    }

    /// How one item constraint fared: how often the item occurs and the first value that failed.
    struct ItemOutcome {
        let count: Int
        let firstFailure: (position: Int, value: String)?
        var allMatch: Bool { firstFailure == nil }
    }
}
