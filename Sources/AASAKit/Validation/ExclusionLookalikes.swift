import OrderedJSON

/// Rules written to exclude links that exclude nothing (AASA027).
///
/// A legacy path is an exclusion only when it starts with `NOT ` exactly: upper case and one space
/// (Apple's "Support Universal Links": add "NOT " with a space after the T). `"not /x"`, `"NOT/x"`, `"NOT  /x"` and `" NOT /x"` all look like one, but the
/// first two are read as paths to open, and the others exclude a pattern starting with a space,
/// which no path matches. Components have no `NOT` at all: `{"/": "NOT /x"}` is a path pattern.
/// Lower-case `not/…` and `not*` are left alone: they may be real paths (`/not/found`, `/notes`).
enum ExclusionLookalikes {
    /// The pattern the author meant to exclude (`/x`), when `text` looks like an exclusion but is not
    /// a valid one; `nil` for a valid `NOT ` path or an ordinary pattern.
    static func intendedPattern(_ text: String, legacy: Bool) -> String? {
        let trimmed = text.drop { $0.isWhitespace }
        guard trimmed.count > 3, trimmed.prefix(3).uppercased() == "NOT" else { return nil }
        let rest = trimmed.dropFirst(3)
        guard let next = rest.first else { return nil }
        let intended = String(rest.drop { $0.isWhitespace })
        guard !intended.isEmpty else { return nil }
        if next.isWhitespace {
            // "NOT /x" is the one valid spelling, in legacy paths only.
            if legacy, text.hasPrefix("NOT "), let after = text.dropFirst(4).first, !after.isWhitespace { return nil }
            return intended
        }
        return next == "/" && trimmed.hasPrefix("NOT") ? intended : nil
    }

    /// The finding for a legacy path that looks like an exclusion.
    static func legacyFinding(_ path: AASALegacyPath, intended: String) -> AASAFinding {
        let reading =
            path.isExclusion
            ? "it excludes the pattern \"\(path.pattern)\", which starts with a space and matches no path, so nothing is excluded"
            : "only \"NOT \" (upper case, one space) marks an exclusion, so this is read as a pattern of paths that open the app"
        return AASAFinding(
            .exclusionLookalike, at: path.jsonPath,
            "\"\(Elision.middle(path.text))\" looks like an exclusion but is not: \(reading)",
            fix: "write \"NOT \(Elision.middle(intended))\"")
    }

    /// The finding for a component path written with `NOT`.
    static func componentFinding(_ source: String, intended: String, at path: JSONPath) -> AASAFinding {
        AASAFinding(
            .exclusionLookalike, at: path,
            "the path pattern \"\(Elision.middle(source))\" starts with NOT, but components do not use NOT: this is a pattern of paths to match, and it excludes nothing",
            fix: "write {\"/\": \"\(Elision.middle(intended))\", \"exclude\": true} before the rules it should take links from")
    }
}
