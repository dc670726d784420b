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
            let comment = component.effective.comment.map { " (\"\($0)\")" } ?? ""
            let flag = component.exclude ? ", which has \"exclude\": true" : ""
            text = "\(verb) \(reference)\(comment)\(flag) for \(apps.joined(separator: ", ")): \(component.check(url).summary)"
        case .legacyPaths(let paths):
            guard let path = paths.first(where: { $0.source.index == reference.ruleIndex }) else { return "\(verb) \(reference)" }
            text =
                "\(verb) \(reference) (\"\(path.source.text)\") for \(apps.joined(separator: ", ")): path \"\(url.encoded.pathText)\" matches \"\(path.pattern.source)\""
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
        if let (reference, component, check) = closestComponent() {
            let comment = component.effective.comment.map { " (\"\($0)\")" } ?? ""
            return Miss(text: "no rule matched; closest is \(reference)\(comment): \(check.summary)", closest: reference)
        }
        let legacy = entries.compactMap { entry -> (CompiledEntry, Int)? in
            if case .legacyPaths(let paths) = entry.rules { return (entry, paths.count) }
            return nil
        }
        if let (entry, count) = legacy.first {
            return Miss(
                text:
                    "no rule matched; none of the \(count) legacy paths of \(entry.source.jsonPath) matches path \"\(url.encoded.pathText)\" (legacy paths ignore the query and fragment)",
                closest: nil)
        }
        return Miss(text: "no rule matched; no details entry has any components or paths", closest: nil)
    }

    /// The opening rule that came closest; exclude rules are only considered when there is no other.
    private func closestComponent() -> (AASARuleReference, CompiledComponent, ComponentCheck)? {
        var best: (AASARuleReference, CompiledComponent, ComponentCheck)?
        var bestIsExclude = true
        for entry in entries {
            guard case .components(let components) = entry.rules else { continue }
            for component in components {
                let check = component.check(url)
                let isBetter: Bool
                if let current = best {
                    if bestIsExclude != component.exclude {
                        isBetter = bestIsExclude
                    } else {
                        isBetter = check.isCloser(than: current.2)
                    }
                } else {
                    isBetter = true
                }
                if isBetter {
                    let reference = AASARuleReference(
                        detailsIndex: entry.source.index, ruleIndex: component.index, kind: .component,
                        jsonPath: entry.source.jsonPath.appending("components").appending(component.index))
                    best = (reference, component, check)
                    bestIsExclude = component.exclude
                }
            }
        }
        return best
    }
}
