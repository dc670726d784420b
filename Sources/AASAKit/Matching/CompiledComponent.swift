/// A component with its defaults applied and its patterns compiled, ready to match many URLs.
struct CompiledComponent: Sendable {
    /// The component after inheriting from app- and domain-level defaults.
    let effective: AASAComponent
    let path: AASAPattern?
    let query: CompiledQuery
    let fragment: AASAPattern?
    let exclude: Bool
    let caseSensitive: Bool
    let percentEncoded: Bool

    init(_ component: AASAComponent, appDefaults: AASAComponent?, domainDefaults: AASAComponent?, variables: AASASubstitutionVariables) {
        let effective = component.filling(from: appDefaults?.filling(from: domainDefaults) ?? domainDefaults)
        self.effective = effective
        let caseSensitive = effective.caseSensitive ?? true
        self.caseSensitive = caseSensitive
        percentEncoded = effective.percentEncoded ?? true
        exclude = effective.exclude ?? false
        path = effective.path.map { AASAPattern($0, role: .urlPath, caseSensitive: caseSensitive, variables: variables) }
        query = CompiledQuery(effective.query, caseSensitive: caseSensitive, variables: variables)
        fragment = effective.fragment.map { AASAPattern($0, caseSensitive: caseSensitive, variables: variables) }
    }

    var index: Int { effective.index }

    /// The fast test: every specified part matches.
    func matches(_ url: PreparedURL) -> Bool {
        let parts = url.parts(percentEncoded: percentEncoded)
        if let path, !path.matches(prepared: parts.path) { return false }
        if !query.matches(parts, caseSensitive: caseSensitive) { return false }
        if let fragment, !fragment.matches(prepared: parts.fragment) { return false }
        return true
    }

    /// The slow test, part by part, with words for each outcome.
    func check(_ url: PreparedURL) -> ComponentCheck {
        let parts = url.parts(percentEncoded: percentEncoded)
        let label = percentEncoded ? "" : "decoded "
        var outcomes: [ComponentCheck.PartOutcome] = []
        if let path {
            let matched = path.matches(prepared: parts.path)
            let detail =
                matched
                ? "\(label)path \"\(Elision.middle(parts.pathText))\" matches \"\(Elision.middle(path.source))\""
                    + PathLeniency.note(for: PathLeniency.needed(by: path, path: parts.pathText))
                : "\(label)path \"\(Elision.middle(parts.pathText))\" does not match \"\(Elision.middle(path.source))\""
                    + (path.problem.map { " (it can never match: \($0))" } ?? "")
            outcomes.append(.init(part: .path, specified: true, matched: matched, detail: detail))
        } else {
            outcomes.append(.init(part: .path, specified: false, matched: true, detail: "any path"))
        }
        let (queryOutcome, satisfied) = checkQuery(parts, label: label, presence: url.queryPresence)
        outcomes.append(queryOutcome)
        if let fragment {
            outcomes.append(
                Self.checkWhole(
                    fragment, text: parts.fragmentText, scalars: parts.fragment,
                    presence: url.fragmentPresence, label: label, part: .fragment))
        } else {
            outcomes.append(.init(part: .fragment, specified: false, matched: true, detail: "any fragment"))
        }
        var notes: [String] = []
        if !caseSensitive { notes.append("compared ignoring case (\"caseSensitive\": false)") }
        return ComponentCheck(parts: outcomes, satisfiedQueryItems: satisfied, notes: notes)
    }

    private func checkQuery(_ parts: PreparedURL.Parts, label: String, presence: PreparedURL.Presence) -> (ComponentCheck.PartOutcome, Int) {
        switch query {
        case .any:
            return (.init(part: .query, specified: false, matched: true, detail: "any query"), 0)
        case .ignored(let name):
            return (
                .init(
                    part: .query, specified: true, matched: true,
                    detail: "the \"?\" dictionary is ignored (the predicate for \"\(Elision.middle(name))\" is not a string), so any query matches"), 0
            )
        case .string(let pattern):
            return (Self.checkWhole(pattern, text: parts.queryText, scalars: parts.query, presence: presence, label: label, part: .query), 0)
        case .items(let constraints):
            var satisfied = 0
            var failure: String?
            var matchedDetails: [String] = []
            for constraint in constraints {
                let outcome = CompiledQuery.occurrences(of: constraint, in: parts, caseSensitive: caseSensitive)
                guard let (position, value) = outcome.firstFailure else {
                    satisfied += 1
                    let anyOrNone = constraint.pattern.matchesEverything ? " (any value or none)" : ""
                    let item = "\(label)query item \"\(Elision.middle(constraint.name))\""
                    switch outcome.count {
                    case 0:
                        matchedDetails.append(
                            "\(item) is absent, which reads as \"\" and the pattern \"\(Elision.middle(constraint.pattern.source))\" accepts\(anyOrNone)")
                    case 1: matchedDetails.append("\(item) matches \"\(Elision.middle(constraint.pattern.source))\"\(anyOrNone)")
                    default:
                        matchedDetails.append(
                            "\(item) matches \"\(Elision.middle(constraint.pattern.source))\" in all \(outcome.count) occurrences\(anyOrNone)")
                    }
                    continue
                }
                guard failure == nil else { continue }
                if outcome.count == 0 {
                    failure = "\(label)query item \"\(Elision.middle(constraint.name))\" is absent; \(ComponentCheck.emptyFailure(constraint.pattern))"
                } else if value.isEmpty {
                    failure =
                        "\(label)query item \"\(Elision.middle(constraint.name))\" is empty"
                        + (outcome.count > 1 ? " in occurrence \(position + 1) of \(outcome.count)" : "")
                        + "; \(ComponentCheck.emptyFailure(constraint.pattern))"
                } else if outcome.count > 1 {
                    failure =
                        "\(label)query item \"\(Elision.middle(constraint.name))\" appears \(outcome.count) times and occurrence \(position + 1) is \"\(Elision.middle(value))\", "
                        + "\(ComponentCheck.valueFailure(constraint.pattern)) (every occurrence must match)"
                } else {
                    failure =
                        "\(label)query item \"\(Elision.middle(constraint.name))\" is \"\(Elision.middle(value))\", \(ComponentCheck.valueFailure(constraint.pattern))"
                }
            }
            if let failure {
                return (.init(part: .query, specified: true, matched: false, detail: failure), satisfied)
            }
            let detail = matchedDetails.isEmpty ? "an empty \"?\" dictionary accepts any query" : matchedDetails.joined(separator: ", ")
            return (.init(part: .query, specified: true, matched: true, detail: detail), satisfied)
        }
    }

    /// A whole-string part (query string or fragment) against its pattern. An absent part and an
    /// empty one (`/x?`, `/x#`) both read as "" for matching, but are told apart in words; a pattern
    /// of `*` is said to accept any value or none, which is what it means.
    private static func checkWhole(
        _ pattern: AASAPattern, text: String, scalars: [Unicode.Scalar], presence: PreparedURL.Presence,
        label: String, part: ComponentCheck.Part
    ) -> ComponentCheck.PartOutcome {
        let noun = part.rawValue
        let delimiter = part == .query ? "?" : "#"
        // A written part that decodes to nothing reads like an empty one.
        let presence = scalars.isEmpty && presence == .present ? .empty : presence
        let subject: String
        switch presence {
        case .absent: subject = "the URL has no \(noun)"
        case .empty: subject = "the \(noun) is empty (nothing after \"\(delimiter)\")"
        case .present: subject = "\(label)\(noun) \"\(Elision.middle(text))\""
        }
        guard pattern.matches(prepared: scalars) else {
            let detail =
                presence == .present
                ? "\(subject) \(ComponentCheck.wholeFailure(pattern))"
                : "\(subject); \(ComponentCheck.emptyFailure(pattern))"
            return .init(part: part, specified: true, matched: false, detail: detail)
        }
        let anyOrNone = pattern.matchesEverything ? " (any \(noun) or none)" : ""
        let detail =
            presence == .present
            ? "\(subject) matches \"\(Elision.middle(pattern.source))\"\(anyOrNone)"
            : presence == .absent
                ? "\(subject), which reads as \"\" and the pattern \"\(Elision.middle(pattern.source))\" accepts\(anyOrNone)"
                : "\(subject), which the pattern \"\(Elision.middle(pattern.source))\" accepts\(anyOrNone)"
        return .init(part: part, specified: true, matched: true, detail: detail)
    }
}
