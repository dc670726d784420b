/// Findings about `applinks.substitutionVariables` definitions.
enum VariableChecks {
    /// Every variable name a pattern of `appLinks` refers to: components and both levels of
    /// defaults (legacy `paths` have no variables).
    static func referencedNames(in appLinks: AASAAppLinks) -> Set<String> {
        var names = Set<String>()
        func add(_ component: AASAComponent?) {
            guard let component else { return }
            var sources = [component.path, component.fragment].compactMap { $0 }
            switch component.query {
            case .string(let source): sources.append(source)
            case .items(let items): sources += items.map(\.pattern)
            case .ignoredDictionary, nil: break
            }
            for source in sources { names.formUnion(PatternTokenizer.references(in: source)) }
        }
        add(appLinks.defaults)
        for entry in appLinks.details {
            add(entry.defaults)
            for component in entry.components ?? [] { add(component) }
        }
        return names
    }

    /// - Parameter referenced: the names patterns use, for the unused-variable check.
    static func findings(for variables: AASASubstitutionVariables, referenced: Set<String>) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        for variable in variables.variables {
            if !variable.hasValidName {
                findings.append(
                    AASAFinding(
                        .invalidVariableName, at: variable.jsonPath,
                        "the variable name \"\(variable.name)\" is empty or contains '$', '(' or ')', so no pattern can use it",
                        fix: "rename it with any characters except '$', '(' and ')'"))
            }
            if AASAPredefinedVariable(rawValue: variable.name) != nil {
                findings.append(
                    AASAFinding(
                        .variableShadowsPredefined, at: variable.jsonPath,
                        "the custom variable \"\(variable.name)\" has the name of a predefined one; linkhost uses this definition, but readers will expect the predefined meaning",
                        fix: "rename the custom variable"))
            }
            if variable.values.isEmpty {
                findings.append(
                    AASAFinding(
                        .emptyVariable, at: variable.jsonPath,
                        "the variable \"\(variable.name)\" has no values, so every pattern using $(\(variable.name)) never matches",
                        fix: "list at least one value"))
            }
            if variable.hasValidName, !referenced.contains(variable.name) {
                findings.append(
                    AASAFinding(
                        .unusedVariable, at: variable.jsonPath,
                        "no pattern uses $(\(variable.name)), so this definition has no effect (perhaps a pattern misspells its name)",
                        fix: "use $(\(variable.name)) in a pattern, or remove the definition"))
            }
            if let index = variable.values.firstIndex(of: "") {
                findings.append(
                    AASAFinding(
                        .emptyVariableValue, at: variable.jsonPath.appending(index),
                        "the variable \"\(variable.name)\" has the empty string as a value, so $(\(variable.name)) may also stand for nothing (\"a$(\(variable.name))\" then matches \"a\" as well)",
                        fix: "remove the empty value; if links without this part are meant, write a second rule for them"))
            }
            for (index, value) in variable.values.enumerated() where value.contains("$(") {
                findings.append(
                    AASAFinding(
                        .variableInVariableValue, at: variable.jsonPath.appending(index),
                        "the value \"\(Elision.middle(value))\" contains \"$(\"; variable values may use * and ? but not other variables, so it is read as plain text",
                        fix: "write the alternatives out instead of referring to another variable"))
            }
        }
        return findings
    }
}
