/// The slash rules of `PathSlashRules` a path match relied on, so an explanation can say that a
/// link opens through behaviour seen in `swcutil` recordings rather than through Apple's documented
/// glob: `abc` read as `/abc`, slash runs collapsed, a trailing slash ignored, and `/x/*` matching `/x`.
enum PathLeniency: Sendable, Hashable {
    /// The pattern has no leading `/` and is read as if it had one.
    case leadingSlashOptional
    /// A leading run of slashes (in the path or the pattern) counts as one.
    case leadingSlashesCollapsed
    /// Trailing slashes differ between path and pattern and do not count.
    case trailingSlashIgnored
    /// A pattern ending in `/*` matched the parent path, without that slash.
    case parentOfSlashStar

    /// What the rule says, for people.
    var wording: String {
        switch self {
        case .leadingSlashOptional: "the pattern's missing leading \"/\" is read as if it were written"
        case .leadingSlashesCollapsed: "a leading run of slashes counts as one"
        case .trailingSlashIgnored: "trailing slashes do not count"
        case .parentOfSlashStar: "a trailing \"/*\" also matches the parent path"
        }
    }

    /// The rules `pattern` (a path pattern that matched `path`) needed; empty when the pattern as
    /// written matches the path as written, as a plain glob.
    static func needed(by pattern: AASAPattern, path: String) -> [PathLeniency] {
        guard pattern.role == .urlPath, pattern.problem == nil else { return [] }
        let scalars = Array((path.isEmpty ? "/" : path).unicodeScalars)
        let written = pattern.writtenTokens
        if let strict = WildcardProgram(
            tokens: written, foldsCase: !pattern.caseSensitive, optionalTailStart: nil, maximumSize: AASAPattern.maximumProgramSize),
            strict.matches(scalars)
        {
            return []
        }
        var needed: [PathLeniency] = []
        if written.first != .scalar("/") { needed.append(.leadingSlashOptional) }
        if scalars.prefix(2) == ["/", "/"] || written.prefix(2) == [.scalar("/"), .scalar("/")] { needed.append(.leadingSlashesCollapsed) }
        let pathTrailing = scalars.reversed().prefix { $0 == "/" }.count
        let patternTrailing = written.reversed().prefix { $0 == .scalar("/") }.count
        if pathTrailing != patternTrailing, scalars.contains(where: { $0 != "/" }) { needed.append(.trailingSlashIgnored) }
        if pattern.optionalTailStart != nil,
            let full = WildcardProgram(
                tokens: pattern.tokens, foldsCase: !pattern.caseSensitive, optionalTailStart: nil, maximumSize: AASAPattern.maximumProgramSize),
            !full.matches(PathSlashRules.trimmed(path))
        {
            needed.append(.parentOfSlashStar)
        }
        return needed
    }

    /// The note an explanation appends after "matches": empty for a plain match.
    static func note(for needed: [PathLeniency]) -> String {
        guard !needed.isEmpty else { return "" }
        let rules = needed.map(\.wording).joined(separator: ", and ")
        return " only through recorded leniency: \(rules) (swcutil behaviour recorded by third parties, not in Apple's documentation)"
    }
}
