/// Findings about `applinks.substitutionVariables` definitions.
enum VariableChecks {
    static func findings(for variables: AASASubstitutionVariables) -> [AASAFinding] {
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
            for (index, value) in variable.values.enumerated() where value.contains("$(") {
                findings.append(
                    AASAFinding(
                        .variableInVariableValue, at: variable.jsonPath.appending(index),
                        "the value \"\(value)\" contains \"$(\"; variable values may use * and ? but not other variables, so it is read as plain text",
                        fix: "write the alternatives out instead of referring to another variable"))
            }
        }
        return findings
    }
}
