import OrderedJSON

/// Findings about single patterns: broken variable references, too large expansions, text a
/// percent-encoded URL never holds (non-ASCII, a raw space, `"`, …), and runs of `*` no one meant.
enum PatternChecks {
    /// More `*` than this in one pattern is reported (AASA029). Real patterns use a handful; one `*`
    /// already spans any text, `/` included, so hundreds only add matching work.
    static let maximumStars = 16

    /// Checks the patterns a component or defaults object writes itself (inherited ones are
    /// reported where they are written). `percentEncoded` and `caseSensitive` are the effective values.
    static func findings(
        for component: AASAComponent, percentEncoded: Bool, caseSensitive: Bool,
        variables: AASASubstitutionVariables
    ) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        func check(_ source: String?, at path: JSONPath, role: AASAPattern.Role, allowsHash: Bool = false) {
            guard let source else { return }
            findings += self.findings(
                for: source, at: path, role: role, percentEncoded: percentEncoded,
                caseSensitive: caseSensitive, variables: variables, allowsHash: allowsHash)
        }
        if let path = component.path, let intended = ExclusionLookalikes.intendedPattern(path, legacy: false) {
            findings.append(ExclusionLookalikes.componentFinding(path, intended: intended, at: component.jsonPath.appending("/")))
        } else {
            check(component.path, at: component.jsonPath.appending("/"), role: .urlPath)
        }
        check(component.fragment, at: component.jsonPath.appending("#"), role: .text, allowsHash: true)
        switch component.query {
        case .string(let source):
            check(source, at: component.jsonPath.appending("?"), role: .text)
        case .items(let items):
            for item in items {
                let itemPath = component.jsonPath.appending("?").appending(item.name)
                if percentEncoded, let (found, encoded) = URLTextCharacters.problem(in: item.name, allowsHash: false, variables: false) {
                    findings.append(
                        AASAFinding(
                            .characterNotInURL, at: itemPath,
                            "the query item name \"\(Elision.middle(item.name))\" holds \(found.joined(separator: ", ")), which a URL never holds as written; compared with the percent-encoded URL, no item has this name",
                            fix: "write the name percent-encoded, \"\(Elision.middle(encoded))\", or add \"percentEncoded\": false"))
                }
                check(item.pattern, at: itemPath, role: .text)
            }
        case .ignoredDictionary, nil:
            break
        }
        return findings
    }

    /// Checks one pattern. `variables` is `nil` for legacy `paths`, where `$(` is plain text;
    /// `allowsHash` is true for a fragment pattern only.
    static func findings(
        for source: String, at path: JSONPath, role: AASAPattern.Role, percentEncoded: Bool,
        caseSensitive: Bool, variables: AASASubstitutionVariables?, allowsHash: Bool = false
    ) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        let pattern = AASAPattern(source, role: role, caseSensitive: caseSensitive, variables: variables)
        switch pattern.problem {
        case .unknownVariable(let name):
            findings.append(
                AASAFinding(
                    .unknownVariable, at: path,
                    "the pattern \"\(Elision.middle(source))\" uses $(\(name)), which is neither defined in applinks.substitutionVariables nor predefined; it never matches",
                    fix:
                        "define \"\(name)\" in applinks.substitutionVariables or use one of \(AASAPredefinedVariable.allCases.map { "$(\($0.rawValue))" }.joined(separator: ", "))"
                ))
        case .unterminatedVariable:
            findings.append(
                AASAFinding(
                    .unterminatedVariable, at: path,
                    "the pattern \"\(Elision.middle(source))\" opens \"$(\" without a closing \")\"; it never matches",
                    fix: "close the reference: $(name)"))
        case .tooComplex(let size):
            findings.append(
                AASAFinding(
                    .patternTooComplex, at: path,
                    "the pattern \"\(Elision.middle(source))\" expands to \(size) matching steps (limit \(AASAPattern.maximumProgramSize)); linkhost treats it as never matching",
                    fix: "use fewer or shorter substitution variables in this pattern"))
        case nil:
            break
        }
        if percentEncoded, source.unicodeScalars.contains(where: { !$0.isASCII }) {
            findings.append(
                AASAFinding(
                    .nonASCIIPatternWhileEncoded, at: path,
                    "the pattern \"\(Elision.middle(source))\" has non-ASCII characters but is compared with the percent-encoded URL, whose text is ASCII; it cannot match them",
                    fix: "add \"percentEncoded\": false to the rule (or its defaults), or write the characters percent-encoded"))
        }
        if percentEncoded, let (found, encoded) = URLTextCharacters.problem(in: source, allowsHash: allowsHash, variables: variables != nil) {
            findings.append(
                AASAFinding(
                    .characterNotInURL, at: path,
                    "the pattern \"\(Elision.middle(source))\" holds \(found.joined(separator: ", ")), which a URL never holds as written; compared with the percent-encoded URL, it never matches",
                    fix: "write it percent-encoded, \"\(Elision.middle(encoded))\", or add \"percentEncoded\": false to the rule"))
        }
        let stars = PatternTokenizer.literalScalars(of: source, variables: variables != nil).count { $0 == "*" }
        if stars > maximumStars {
            findings.append(
                AASAFinding(
                    .pathologicalPattern, at: path,
                    "the pattern \"\(Elision.middle(source))\" has \(stars) \"*\"; one \"*\" already matches any text, \"/\" included, so the rest only add matching work (and a backtracking matcher may take very long)",
                    fix: "keep one \"*\" for each part that varies, e.g. \"/items/*\""))
        }
        return findings
    }
}
