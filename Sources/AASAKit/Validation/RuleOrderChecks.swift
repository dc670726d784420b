import OrderedJSON

/// Findings about the order of one entry's rules: unreachable rules and whole-site catch-alls.
enum RuleOrderChecks {
    /// Rules compared pairwise per entry at most; beyond this only catch-alls are reported, which
    /// keeps a hostile file of thousands of rules from taking quadratic time.
    static let maximumComparedRules = 400

    static func findings(for entry: CompiledEntry) -> [AASAFinding] {
        switch entry.rules {
        case .components(let components): componentFindings(components, entry: entry.source)
        case .legacyPaths(let paths): legacyFindings(paths, entry: entry.source)
        case .none: []
        }
    }

    private static func componentFindings(_ components: [CompiledComponent], entry: AASADetailsEntry) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        for (position, component) in components.enumerated() {
            let path = component.effective.jsonPath
            if position < maximumComparedRules,
                let earlier = components.prefix(position).first(where: { RuleCoverage.covers($0, component) })
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

    private static func legacyFindings(_ paths: [CompiledLegacyPath], entry: AASADetailsEntry) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        for (position, path) in paths.enumerated() {
            if position < maximumComparedRules,
                let earlier = paths.prefix(position).first(where: { PatternInclusion.includes($0.pattern, path.pattern) })
            {
                let how = earlier.source.isExclusion ? "excludes" : "already matches"
                findings.append(
                    AASAFinding(
                        .shadowedRule, at: path.source.jsonPath,
                        "this path is unreachable: \(earlier.source.jsonPath) (\"\(earlier.source.text)\") \(how) every path it matches, and evaluation stops at the first match",
                        fix: "move it above \(earlier.source.jsonPath), or remove it"))
            }
            if !path.source.isExclusion, path.pattern.matchesEverything {
                findings.append(
                    AASAFinding(
                        .wholeSiteCatchAll, at: path.source.jsonPath,
                        "the path \"\(path.source.text)\" matches every path, so the whole site opens the app",
                        fix: "list the paths the app handles instead of \"\(path.source.text)\""))
            }
        }
        return findings
    }
}
