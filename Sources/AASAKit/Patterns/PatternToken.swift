/// One element of a compiled pattern.
enum PatternToken: Sendable, Hashable {
    /// One literal scalar (already folded when the pattern ignores case).
    case scalar(Unicode.Scalar)
    /// `?`: exactly one scalar.
    case anyScalar
    /// `*`: any run of scalars, including none.
    case anyRun
    /// A predefined one-character variable such as `$(digit)`.
    case scalarClass(ScalarClass)
    /// A variable with string alternatives; each choice holds only scalars, `?` and `*`.
    case alternatives(name: String, choices: [[PatternToken]])

    /// The fewest scalars the token can consume.
    var minimumLength: Int {
        switch self {
        case .scalar, .anyScalar, .scalarClass: 1
        case .anyRun: 0
        case .alternatives(_, let choices): choices.map(PatternToken.minimumLength(of:)).min() ?? 0
        }
    }

    static func minimumLength(of tokens: [PatternToken]) -> Int {
        tokens.reduce(0) { $0 + $1.minimumLength }
    }
}
