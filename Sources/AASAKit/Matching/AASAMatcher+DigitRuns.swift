extension AASAMatcher {
    /// Whether no rule of the file can tell one run of digits from another: no pattern holds a
    /// digit, a digit class, or a `?` that is not beside a `*` (a gap of `?*` only asks for one
    /// character or more). Under such a file a link answers as its `LinkForm` does, with every digit
    /// run cut to one digit, which is how a reload answers a million logged ids as a few forms.
    public var isBlindToDigitRuns: Bool {
        for entry in entries {
            switch entry.rules {
            case .components(let components):
                for component in components {
                    if let path = component.path, !path.isBlindToDigitRuns { return false }
                    if let fragment = component.fragment, !fragment.isBlindToDigitRuns { return false }
                    switch component.query {
                    case .any, .ignored: break
                    case .string(let pattern): if !pattern.isBlindToDigitRuns { return false }
                    case .items(let items):
                        for item in items where item.comparedName.unicodeScalars.contains(where: Self.isDigit) || !item.pattern.isBlindToDigitRuns {
                            return false
                        }
                    }
                }
            case .legacyPaths(let paths):
                if paths.contains(where: { !$0.pattern.isBlindToDigitRuns }) { return false }
            case .none:
                break
            }
        }
        return true
    }

    fileprivate static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }
}

extension AASAPattern {
    /// See `AASAMatcher.isBlindToDigitRuns`. A variable's choices are plain text here: one with a
    /// wildcard or an empty choice could join the gaps beside it, so it counts as telling digits apart.
    fileprivate var isBlindToDigitRuns: Bool {
        guard problem == nil else { return true }
        var questionMarks = 0
        var stars = 0
        func gapEnds() -> Bool {
            defer {
                questionMarks = 0
                stars = 0
            }
            return questionMarks == 0 || (questionMarks == 1 && stars > 0)
        }
        for token in tokens {
            switch token {
            case .anyScalar: questionMarks += 1
            case .anyRun: stars += 1
            case .scalar(let scalar):
                guard gapEnds(), !AASAMatcher.isDigit(scalar) else { return false }
            case .scalarClass:
                return false
            case .alternatives(_, let choices):
                let plain = choices.allSatisfy { choice in
                    !choice.isEmpty
                        && choice.allSatisfy { if case .scalar(let scalar) = $0 { !AASAMatcher.isDigit(scalar) } else { false } }
                }
                guard gapEnds(), plain else { return false }
            }
        }
        return gapEnds()
    }
}
