/// A legacy `paths` string compiled for matching.
///
/// Decisions (§3.11): only the path is compared, as written (percent escapes kept) and
/// case-sensitively; `?` is a one-character wildcard, not a query; `$(` is plain text because
/// substitution variables arrived with `components`. The §3.10 slash rules apply here as well, so
/// seed 004's `/recipes/*/` matches `/recipes/10/` and `/search/` matches `/search`.
struct CompiledLegacyPath: Sendable {
    let source: AASALegacyPath
    let pattern: AASAPattern

    init(_ source: AASALegacyPath) {
        self.source = source
        pattern = AASAPattern(source.pattern, role: .urlPath, caseSensitive: true, variables: nil)
    }

    func matches(_ url: PreparedURL) -> Bool { pattern.matches(prepared: url.encoded.path) }
}
