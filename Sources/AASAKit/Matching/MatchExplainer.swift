import OrderedJSON

/// Puts a match decision, or a miss and its nearest rule, into words.
struct MatchExplainer {
    let entries: [CompiledEntry]
    let url: PreparedURL
    let document: AASADocument
    let options: AASAMatchOptions

    func explainDecision(
        _ decision: AASADecision, entry: CompiledEntry, reference: AASARuleReference,
        apps: [String], all: [AASAAppDecision]
    ) -> String {
        let verb = decision == .match ? "matched by" : "blocked by"
        var text: String
        switch entry.rules {
        case .components(let components):
            guard let component = components.first(where: { $0.index == reference.ruleIndex }) else { return "\(verb) \(reference)" }
            let comment = component.effective.comment.map { " (\"\(Elision.middle($0))\")" } ?? ""
            let flag = component.exclude ? ", which has \"exclude\": true" : ""
            text = "\(verb) \(reference)\(comment)\(flag) for \(apps.joined(separator: ", ")): \(component.check(url).summary)"
        case .legacyPaths(let paths):
            guard let path = paths.first(where: { $0.source.index == reference.ruleIndex }) else { return "\(verb) \(reference)" }
            text =
                "\(verb) \(reference) (\"\(Elision.middle(path.source.text))\") for \(apps.joined(separator: ", ")): path \"\(Elision.middle(url.encoded.pathText))\" matches \"\(Elision.middle(path.pattern.source))\""
                + PathLeniency.note(for: PathLeniency.needed(by: path.pattern, path: url.encoded.pathText))
        case .none:
            text = "\(verb) \(reference)"
        }
        if decision == .match {
            let blocked = all.filter { $0.decision == .exclude }
            if !blocked.isEmpty {
                text += ". Blocked for \(blocked.map(\.appID).joined(separator: ", ")) by an earlier entry (an exclusion only covers the apps of its own entry)"
            }
        }
        return text
    }

    struct Miss {
        let text: String
        let closest: AASARuleReference?
    }

    func explainMiss() -> Miss {
        guard document.appLinks != nil else {
            return Miss(text: "the file has no applinks section, so no URL opens an app", closest: nil)
        }
        if entries.isEmpty {
            if let app = options.appID { return Miss(text: "no details entry lists the app \"\(app)\"", closest: nil) }
            return Miss(text: "the file has no usable details entry, so no URL opens an app", closest: nil)
        }
        switch closestComponent() {
        case .rule(let reference, let component, let check):
            let comment = component.effective.comment.map { " (\"\(Elision.middle($0))\")" } ?? ""
            return Miss(text: "no rule matched; closest is \(reference)\(comment): \(check.summary)", closest: reference)
        case .noPathMatches(let patterns):
            let listed = patterns.prefix(3).map { "\"\(Elision.middle($0))\"" }.joined(separator: ", ")
            let more = patterns.count > 3 ? " and \(patterns.count - 3) more" : ""
            return Miss(
                text: "no rule matched; path \"\(Elision.middle(url.encoded.pathText))\" does not match any rule's path pattern (\(listed)\(more))",
                closest: nil)
        case nil:
            break
        }
        let legacy = entries.compactMap { entry -> (CompiledEntry, Int)? in
            if case .legacyPaths(let paths) = entry.rules { return (entry, paths.count) }
            return nil
        }
        if let (entry, count) = legacy.first {
            return Miss(
                text:
                    "no rule matched; none of the \(count) legacy paths of \(entry.source.jsonPath) matches path \"\(Elision.middle(url.encoded.pathText))\" (legacy paths ignore the query and fragment)",
                closest: nil)
        }
        return Miss(text: "no rule matched; no details entry has any components or paths", closest: nil)
    }

    enum Closest {
        case rule(AASARuleReference, CompiledComponent, ComponentCheck)
        /// Every rule constrains the path and none accepts it, nor resembles it: naming one would
        /// point at an unrelated rule, so the paths are listed instead.
        case noPathMatches([String])
    }

    /// The opening rule that came closest; exclude rules are only considered when there is no other.
    ///
    /// Closeness: a rule whose path matches beats any whose path does not (the path says which
    /// feature a link is about); then more matched parts, then more query items that held. A rule
    /// whose path does not match is only named when its pattern starts like the URL's path.
    private func closestComponent() -> Closest? {
        var candidates: [(reference: AASARuleReference, component: CompiledComponent, check: ComponentCheck)] = []
        for entry in entries {
            guard case .components(let components) = entry.rules else { continue }
            for component in components {
                let reference = AASARuleReference(
                    detailsIndex: entry.source.index, ruleIndex: component.index, kind: .component,
                    jsonPath: entry.source.jsonPath.appending("components").appending(component.index))
                candidates.append((reference, component, component.check(url)))
            }
        }
        guard !candidates.isEmpty else { return nil }
        let opening = candidates.filter { !$0.component.exclude }
        let pool = opening.isEmpty ? candidates : opening
        var best = pool[0]
        for candidate in pool.dropFirst() where candidate.check.isCloser(than: best.check) { best = candidate }
        // With one rule to choose from, naming it cannot mislead, and its detail says what failed.
        if best.check.pathMatched || pool.count == 1 { return .rule(best.reference, best.component, best.check) }
        let path = url.encoded.path
        let related = pool.map { ($0, sharedPrefix($0.component, path: path)) }.filter { $0.1 > 0 }
        if let (closest, _) = related.max(by: { $0.1 < $1.1 }) { return .rule(closest.reference, closest.component, closest.check) }
        return .noPathMatches(pool.compactMap { $0.component.path?.source })
    }

    /// How alike the rule's path pattern and the URL's path start, or 0 when they are about
    /// different things. Their first segments are compared (the pattern's as far as it is literal):
    /// equal, or sharing at least three characters, or the URL's starting with a pattern segment cut
    /// short by a wildcard (`/t*/x` and `/tab/y`). The score is the number of shared characters.
    private func sharedPrefix(_ component: CompiledComponent, path: [Unicode.Scalar]) -> Int {
        guard let pattern = component.path else { return 0 }
        var segment: [Unicode.Scalar] = []
        var complete = true
        for token in pattern.tokens {
            guard case .scalar(let scalar) = token else {
                complete = false
                break
            }
            if scalar == "/" { break }
            segment.append(scalar)
        }
        let first = path.prefix { $0 != "/" }.map { component.caseSensitive ? $0 : CaseFolding.fold($0) }
        let shared = zip(segment, first).prefix { $0 == $1 }.count
        if complete { return segment == first || shared >= 3 ? max(shared, 1) : 0 }
        return !segment.isEmpty && shared == segment.count ? shared : 0
    }
}
