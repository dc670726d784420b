import OrderedJSON

/// Findings about single patterns: broken variable references, too large expansions, and
/// non-ASCII text compared against percent-encoded URLs.
enum PatternChecks {
    /// Checks the patterns a component or defaults object writes itself (inherited ones are
    /// reported where they are written). `percentEncoded` and `caseSensitive` are the effective values.
    static func findings(
        for component: AASAComponent, percentEncoded: Bool, caseSensitive: Bool,
        variables: AASASubstitutionVariables
    ) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        func check(_ source: String?, at path: JSONPath, role: AASAPattern.Role) {
            guard let source else { return }
            findings += self.findings(
                for: source, at: path, role: role, percentEncoded: percentEncoded,
                caseSensitive: caseSensitive, variables: variables)
        }
        check(component.path, at: component.jsonPath.appending("/"), role: .urlPath)
        check(component.fragment, at: component.jsonPath.appending("#"), role: .text)
        switch component.query {
        case .string(let source):
            check(source, at: component.jsonPath.appending("?"), role: .text)
        case .items(let items):
            for item in items { check(item.pattern, at: component.jsonPath.appending("?").appending(item.name), role: .text) }
        case .ignoredDictionary, nil:
            break
        }
        return findings
    }

    static func findings(
        for source: String, at path: JSONPath, role: AASAPattern.Role, percentEncoded: Bool,
        caseSensitive: Bool, variables: AASASubstitutionVariables?
    ) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        let pattern = AASAPattern(source, role: role, caseSensitive: caseSensitive, variables: variables)
        switch pattern.problem {
        case .unknownVariable(let name):
            findings.append(
                AASAFinding(
                    .unknownVariable, at: path,
                    "the pattern \"\(source)\" uses $(\(name)), which is neither defined in applinks.substitutionVariables nor predefined; it never matches",
                    fix:
                        "define \"\(name)\" in applinks.substitutionVariables or use one of \(AASAPredefinedVariable.allCases.map { "$(\($0.rawValue))" }.joined(separator: ", "))"
                ))
        case .unterminatedVariable:
            findings.append(
                AASAFinding(
                    .unterminatedVariable, at: path,
                    "the pattern \"\(source)\" opens \"$(\" without a closing \")\"; it never matches",
                    fix: "close the reference: $(name)"))
        case .tooComplex(let size):
            findings.append(
                AASAFinding(
                    .patternTooComplex, at: path,
                    "the pattern \"\(source)\" expands to \(size) matching steps (limit \(AASAPattern.maximumProgramSize)); linkhost treats it as never matching",
                    fix: "use fewer or shorter substitution variables in this pattern"))
        case nil:
            break
        }
        if percentEncoded, source.unicodeScalars.contains(where: { !$0.isASCII }) {
            findings.append(
                AASAFinding(
                    .nonASCIIPatternWhileEncoded, at: path,
                    "the pattern \"\(source)\" has non-ASCII characters but is compared with the percent-encoded URL, whose text is ASCII; it cannot match them",
                    fix: "add \"percentEncoded\": false to the rule (or its defaults), or write the characters percent-encoded"))
        }
        return findings
    }
}
