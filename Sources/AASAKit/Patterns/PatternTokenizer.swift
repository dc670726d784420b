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

    /// The variable names `source` refers to with `$(name)`, in order, read exactly as ``tokenize``
    /// reads them (a reference ends at the first `)`; an unclosed one names nothing).
    static func references(in source: String) -> [String] {
        let scalars = Array(source.unicodeScalars)
        var names: [String] = []
        var index = 0
        while index + 1 < scalars.count {
            guard scalars[index] == "$", scalars[index + 1] == "(" else {
                index += 1
                continue
            }
            guard let close = scalars[(index + 2)...].firstIndex(of: ")") else { break }
            names.append(String(String.UnicodeScalarView(scalars[(index + 2)..<close])))
            index = close + 1
        }
        return names
    }

    /// The scalars of `source` outside `$(name)` references (all of them when `variables` is off),
    /// for checks on what the pattern writes literally.
    static func literalScalars(of source: String, variables: Bool) -> [Unicode.Scalar] {
        guard variables else { return Array(source.unicodeScalars) }
        let scalars = Array(source.unicodeScalars)
        var literal: [Unicode.Scalar] = []
        var index = 0
        while index < scalars.count {
            if scalars[index] == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                let close = scalars[(index + 2)...].firstIndex(of: ")")
            {
                index = close + 1
                continue
            }
            literal.append(scalars[index])
            index += 1
        }
        return literal
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
