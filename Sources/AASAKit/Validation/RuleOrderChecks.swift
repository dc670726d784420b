import OrderedJSON

/// Findings about the order of one entry's rules: unreachable rules, whole-site catch-alls, and
/// exclusions of every URL that turn the entry's links off.
///
/// A rule that matches (or excludes) every URL ends the list for the rules after it: they are
/// named once, in one finding on that rule (AASA020 for a catch-all, AASA025/AASA026 for an
/// exclusion), not once each, which for a catch-all at the top of a long list buried the cause
/// under a warning per rule.
enum RuleOrderChecks {
    /// Rules compared pairwise per entry at most; beyond this only catch-alls are reported, which
    /// keeps a hostile file of thousands of rules from taking quadratic time.
    static let maximumComparedRules = 400

    static func findings(for entry: CompiledEntry) -> [AASAFinding] {
        var budget = PatternInclusion.Budget(tokens: comparedTokens(of: entry))
        return findings(for: entry, budget: &budget)
    }

    /// The findings, the rules' comparisons drawing on `budget` (which tests then read).
    static func findings(for entry: CompiledEntry, budget: inout PatternInclusion.Budget) -> [AASAFinding] {
        switch entry.rules {
        case .components(let components): componentFindings(components, entry: entry.source, budget: &budget)
        case .legacyPaths(let paths): legacyFindings(paths, entry: entry.source, budget: &budget)
        case .none: []
        }
    }

    /// The tokens of the rules that are compared pairwise, which size their budget.
    static func comparedTokens(of entry: CompiledEntry) -> Int {
        switch entry.rules {
        case .components(let components): components.prefix(maximumComparedRules).reduce(0) { $0 + RuleCoverage.tokenCount(of: $1) }
        case .legacyPaths(let paths): paths.prefix(maximumComparedRules).reduce(0) { $0 + PatternInclusion.tokenCount(of: $1.pattern) }
        case .none: 0
        }
    }

    /// One rule as the checks of rules that match every URL see it.
    private struct OrderedRule {
        let index: Int
        let jsonPath: JSONPath
        let excludes: Bool
        let blocksEverything: Bool
        let opensEverything: Bool
        /// How a finding quotes the rule's pattern after its index (`("*")` for a legacy path).
        var quoted = ""
        /// What a rule that opens everything matches: legacy paths see the path only.
        var everything = "every URL"
    }

    /// Findings for the first rule that opens or blocks every URL, and the position after which
    /// every rule is dead (and already named), or `nil`.
    private static func everyURLFindings(_ rules: [OrderedRule], entry: AASADetailsEntry, example: String) -> ([AASAFinding], deadAfter: Int?) {
        guard let position = rules.firstIndex(where: { $0.opensEverything || $0.blocksEverything }) else { return ([], nil) }
        if rules[position].blocksEverything {
            return (wholeSiteExclusionFindings(rules, at: position, entry: entry, example: example), nil)
        }
        return (catchAllShadowFindings(rules, at: position), position)
    }

    /// AASA020 once for a catch-all followed by other rules: it matches first, so none of them ever
    /// applies, exclusions included.
    private static func catchAllShadowFindings(_ rules: [OrderedRule], at position: Int) -> [AASAFinding] {
        let catchAll = rules[position]
        let after = Array(rules[(position + 1)...])
        guard !after.isEmpty else { return [] }
        let verb = after.count == 1 ? "never applies" : "never apply"
        return [
            AASAFinding(
                .shadowedRule, at: catchAll.jsonPath,
                "rule \(catchAll.index) of this entry\(catchAll.quoted) matches \(catchAll.everything), so the \(count(after.count, "rule")) after it (\(list(after))) \(verb):"
                    + " the first rule that matches decides",
                fix:
                    "move the \(after.count == 1 ? "rule" : "rules") after it above it (an exclusion must come before the rules it carves out of), or remove \(after.count == 1 ? "it" : "them")"
            )
        ]
    }

    private static func componentFindings(_ components: [CompiledComponent], entry: AASADetailsEntry, budget: inout PatternInclusion.Budget) -> [AASAFinding] {
        let (everyURL, deadAfter) = everyURLFindings(
            components.map {
                OrderedRule(
                    index: $0.index, jsonPath: $0.effective.jsonPath, excludes: $0.exclude, blocksEverything: RuleCoverage.isWholeSiteExclusion($0),
                    opensEverything: RuleCoverage.isCatchAll($0))
            },
            entry: entry, example: #"{"/": "/admin/*", "exclude": true}"#)
        var findings = everyURL
        for (position, component) in components.enumerated() {
            let path = component.effective.jsonPath
            // A rule behind a catch-all or a whole-site exclusion is already named by that rule's
            // finding (the root cause).
            if position < maximumComparedRules, position <= deadAfter ?? position,
                let earlier = components.prefix(position).first(where: { RuleCoverage.covers($0, component, budget: &budget) }),
                !RuleCoverage.isWholeSiteExclusion(earlier)
            {
                let earlierPath = earlier.effective.jsonPath
                let how =
                    earlier.exclude
                    ? "\(earlierPath) excludes every URL this component matches"
                    : "\(earlierPath) already matches every URL this component matches"
                findings.append(
                    AASAFinding(
                        .shadowedRule, at: path,
                        "this component is unreachable: \(how), and the first match wins",
                        fix: "move this component above \(earlierPath), narrow \(earlierPath), or remove this one"))
            }
            if RuleCoverage.isCatchAll(component) {
                findings.append(
                    AASAFinding(
                        .wholeSiteCatchAll, at: path,
                        "this component matches every path, query and fragment, so every URL of the site not excluded earlier opens the app",
                        fix: "list the paths the app handles, e.g. { \"/\": \"/items/*\" }, or add exclude rules before it"))
            }
        }
        return findings
    }

    private static func legacyFindings(_ paths: [CompiledLegacyPath], entry: AASADetailsEntry, budget: inout PatternInclusion.Budget) -> [AASAFinding] {
        let blocksEverything = { (path: CompiledLegacyPath) in path.source.isExclusion && path.pattern.matchesEverything }
        let (everyURL, deadAfter) = everyURLFindings(
            paths.map {
                OrderedRule(
                    index: $0.source.index, jsonPath: $0.source.jsonPath, excludes: $0.source.isExclusion, blocksEverything: blocksEverything($0),
                    opensEverything: !$0.source.isExclusion && $0.pattern.matchesEverything, quoted: " (\"\(Elision.middle($0.source.text))\")",
                    everything: "every path")
            },
            entry: entry, example: #""NOT /admin/*""#)
        var findings = everyURL
        for (position, path) in paths.enumerated() {
            if position < maximumComparedRules, position <= deadAfter ?? position,
                let earlier = paths.prefix(position).first(where: { PatternInclusion.includes($0.pattern, path.pattern, budget: &budget) }),
                !blocksEverything(earlier)
            {
                let how = earlier.source.isExclusion ? "excludes" : "already matches"
                findings.append(
                    AASAFinding(
                        .shadowedRule, at: path.source.jsonPath,
                        "this path is unreachable: \(earlier.source.jsonPath) (\"\(Elision.middle(earlier.source.text))\") \(how) every path it matches, and evaluation stops at the first match",
                        fix: "move it above \(earlier.source.jsonPath), or remove it"))
            }
            if !path.source.isExclusion, path.pattern.matchesEverything {
                findings.append(
                    AASAFinding(
                        .wholeSiteCatchAll, at: path.source.jsonPath,
                        "the path \"\(Elision.middle(path.source.text))\" matches every path, so the whole site opens the app",
                        fix: "list the paths the app handles instead of \"\(Elision.middle(path.source.text))\""))
            }
        }
        return findings
    }

    /// AASA025 / AASA026 for the first rule that excludes every URL (`position`; none before it opens
    /// every URL): with no opening rule before it,
    /// no link of the entry's apps opens the app (an error); after some, every rule behind it is dead
    /// (a warning). One after every opening rule only ends the list, which is harmless.
    private static func wholeSiteExclusionFindings(_ rules: [OrderedRule], at position: Int, entry: AASADetailsEntry, example: String) -> [AASAFinding] {
        let exclusion = rules[position]
        let before = rules[..<position].filter { !$0.excludes }
        let after = rules[(position + 1)...].filter { !$0.excludes }
        let rule = "rule \(exclusion.index) of this entry excludes every URL"
        let verb = after.count == 1 ? "never applies" : "never apply"
        let dead = after.isEmpty ? "" : "; the \(count(after.count, "rule")) after it that would open the app (\(list(after))) \(verb)"
        if before.isEmpty {
            return [
                AASAFinding(
                    .wholeSiteExclusion, at: exclusion.jsonPath,
                    "\(rule) and no rule before it opens the app, so no link opens \(entry.appIDs.joined(separator: ", "))\(dead)",
                    fix: "exclude only the paths that must stay in the browser, e.g. \(example), and put it before the rules that open the app")
            ]
        }
        guard !after.isEmpty else { return [] }
        return [
            AASAFinding(
                .wholeSiteExclusionShadows, at: exclusion.jsonPath,
                "\(rule): only the \(count(before.count, "rule")) before it can open the app\(dead)",
                fix: "move the rules that should open the app above it, or narrow it to the paths that must stay in the browser, e.g. \(example)")
        ]
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// The rules' paths, the first three and how many more.
    private static func list(_ rules: [OrderedRule]) -> String {
        let shown = rules.prefix(3).map(\.jsonPath.description).joined(separator: ", ")
        return rules.count > 3 ? "\(shown) and \(rules.count - 3) more" : shown
    }
}
