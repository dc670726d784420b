/// A `details` entry compiled for matching: its apps and the rules iOS 13+ would read.
struct CompiledEntry: Sendable {
    enum Rules: Sendable {
        case components([CompiledComponent])
        case legacyPaths([CompiledLegacyPath])
        case none
    }

    let source: AASADetailsEntry
    let rules: Rules
    /// The entry's app IDs that are not app IDs at all (`AppIDFormat` calls them malformed), with why:
    /// no installed app has one, so iOS opens nothing for them.
    let refusedAppIDs: [String: String]

    init(_ entry: AASADetailsEntry, domainDefaults: AASAComponent?, variables: AASASubstitutionVariables) {
        source = entry
        var refused: [String: String] = [:]
        for app in entry.appIDs {
            if case .malformed(let reason) = AppIDFormat.check(app) { refused[app] = reason }
        }
        refusedAppIDs = refused
        if let components = entry.components {
            rules = .components(
                components.map {
                    CompiledComponent($0, appDefaults: entry.defaults, domainDefaults: domainDefaults, variables: variables)
                })
        } else if let paths = entry.paths {
            rules = .legacyPaths(paths.map(CompiledLegacyPath.init))
        } else {
            rules = .none
        }
    }

    /// The first rule that matches, in array order (first match wins), and whether it blocks.
    func firstDecision(for url: PreparedURL) -> (ruleIndex: Int, kind: AASARuleKind, excludes: Bool)? {
        switch rules {
        case .components(let components):
            for component in components where component.matches(url) {
                return (component.index, .component, component.exclude)
            }
        case .legacyPaths(let paths):
            for path in paths where path.matches(url) {
                return (path.source.index, .legacyPath, path.source.isExclusion)
            }
        case .none:
            break
        }
        return nil
    }
}

/// A legacy `paths` string compiled for matching.
///
/// Decisions: only the path is compared, as written (percent escapes kept) and case-sensitively;
/// `?` is a one-character wildcard, not a query; `$(` is plain text because substitution variables
/// arrived with `components` (iOS 13). The slash rules of `PathSlashRules` apply here as well, so
/// `/recipes/*/` matches `/recipes/10/` and `/search/` matches `/search`.
struct CompiledLegacyPath: Sendable {
    let source: AASALegacyPath
    let pattern: AASAPattern

    init(_ source: AASALegacyPath) {
        self.source = source
        pattern = AASAPattern(source.pattern, role: .urlPath, caseSensitive: true, variables: nil)
    }

    func matches(_ url: PreparedURL) -> Bool { pattern.matches(prepared: url.encoded.path) }
}
