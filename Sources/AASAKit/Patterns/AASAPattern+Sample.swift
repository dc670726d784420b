extension AASAPattern {
    /// One text the pattern accepts, built from its tokens (`?` and `*` become `x` and nothing, a
    /// variable its first alternative), or `nil` when the pattern can never match. For a path
    /// pattern the sample starts with `/`. Used to probe what a component opens, e.g. whether a
    /// fallback page serves it.
    public func sample() -> String? {
        guard problem == nil else { return nil }
        var scalars = String.UnicodeScalarView()
        Self.appendSample(of: tokens, to: &scalars)
        let text = String(scalars)
        guard role == .urlPath else { return text }
        return text.hasPrefix("/") ? text : "/" + text
    }

    private static func appendSample(of tokens: [PatternToken], to scalars: inout String.UnicodeScalarView) {
        for token in tokens {
            switch token {
            case .scalar(let scalar): scalars.append(scalar)
            case .anyScalar: scalars.append("x")
            case .anyRun: continue
            case .scalarClass(let set): scalars.append(set.representative)
            case .alternatives(_, let choices):
                if let first = choices.first { appendSample(of: first, to: &scalars) }
            }
        }
    }
}

extension ScalarClass {
    /// A member of the set, for samples.
    var representative: Unicode.Scalar {
        switch self {
        case .alpha, .lower, .alnum: "a"
        case .upper: "A"
        case .digit, .xdigit: "0"
        }
    }
}
