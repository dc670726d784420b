/// Turns pattern text into tokens: `*`, `?`, `$(name)` and literal scalars. There is no escape syntax.
enum PatternTokenizer {
    struct Output {
        var tokens: [PatternToken]
        var problem: AASAPatternProblem?
    }

    /// - Parameter variables: `nil` for legacy `paths`, where `$(` is plain text.
    static func tokenize(_ source: String, variables: AASASubstitutionVariables?, foldingCase: Bool) -> Output {
        let scalars = Array(source.unicodeScalars)
        var tokens: [PatternToken] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "$", let variables, index + 1 < scalars.count, scalars[index + 1] == "(" {
                guard let close = scalars[(index + 2)...].firstIndex(of: ")") else {
                    return Output(tokens: tokens, problem: .unterminatedVariable)
                }
                let name = String(String.UnicodeScalarView(scalars[(index + 2)..<close]))
                guard let expansion = expand(name, variables: variables, foldingCase: foldingCase) else {
                    return Output(tokens: tokens, problem: .unknownVariable(name))
                }
                tokens.append(expansion)
                index = close + 1
                continue
            }
            append(simpleToken(scalar, foldingCase: foldingCase), to: &tokens)
            index += 1
        }
        return Output(tokens: tokens, problem: nil)
    }

    /// Decision: a custom variable whose name equals a predefined one wins (the file is more specific);
    /// the validator warns about it.
    private static func expand(_ name: String, variables: AASASubstitutionVariables, foldingCase: Bool) -> PatternToken? {
        if let values = variables[name] {
            return .alternatives(name: name, choices: values.map { choiceTokens($0, foldingCase: foldingCase) })
        }
        guard let predefined = AASAPredefinedVariable(rawValue: name) else { return nil }
        if let set = predefined.scalarClass { return .scalarClass(set) }
        return .alternatives(name: name, choices: predefined.values.map { choiceTokens($0, foldingCase: foldingCase) })
    }

    /// A variable's value: wildcards count, but `$(` is plain text (values may not nest variables).
    private static func choiceTokens(_ value: String, foldingCase: Bool) -> [PatternToken] {
        var tokens: [PatternToken] = []
        for scalar in value.unicodeScalars { append(simpleToken(scalar, foldingCase: foldingCase), to: &tokens) }
        return tokens
    }

    private static func simpleToken(_ scalar: Unicode.Scalar, foldingCase: Bool) -> PatternToken {
        switch scalar {
        case "*": .anyRun
        case "?": .anyScalar
        default: .scalar(foldingCase ? CaseFolding.fold(scalar) : scalar)
        }
    }

    /// `**` means the same as `*`; merging them keeps the matcher's state count down.
    private static func append(_ token: PatternToken, to tokens: inout [PatternToken]) {
        if token == .anyRun, tokens.last == .anyRun { return }
        tokens.append(token)
    }
}
