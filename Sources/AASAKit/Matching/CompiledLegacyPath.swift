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
