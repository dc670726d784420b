/// One AASA pattern (`*`, `?`, `$(name)`, everything else literal), compiled once and matched many
/// times in time linear in the text for a given pattern.
///
/// Decision: `?` consumes one Unicode scalar of the compared text. Under the default
/// `percentEncoded: true` that text is the URL as written (ASCII), so `?` is one character such as
/// `%`; under `percentEncoded: false` it is one decoded scalar (`é`, `哈`, or an emoji).
public struct AASAPattern: Sendable, CustomStringConvertible {
    /// What the pattern is matched against, which decides the slash rules.
    public enum Role: Sendable, Hashable {
        /// A query string, query item value or fragment: compared as is.
        case text
        /// A URL path: leading and trailing slashes are insignificant and `/x/*` also matches `/x`.
        case urlPath
    }

    /// Largest automaton one pattern may expand to; bounds memory and time on hostile files.
    public static let maximumProgramSize = 50_000

    /// The pattern as written in the file.
    public let source: String
    public let role: Role
    public let caseSensitive: Bool
    /// Why the pattern can never match, or `nil` when it is usable.
    public let problem: AASAPatternProblem?
    /// Tokens after the slash rules; with `optionalTailStart`, the tokens from there on may be skipped.
    let tokens: [PatternToken]
    /// Tokens as written, before the slash rules; explanations compare with them to tell whether a
    /// match needed the recorded leniency.
    let writtenTokens: [PatternToken]
    let optionalTailStart: Int?
    private let strategy: Strategy

    private enum Strategy: Sendable {
        case never
        case everything
        case literal([Unicode.Scalar])
        case automaton(WildcardProgram)
    }

    /// Compiles `source`.
    /// - Parameter variables: custom variables in scope (predefined ones are always there);
    ///   `nil` turns `$(` into plain text, as in legacy `paths`.
    public init(_ source: String, role: Role = .text, caseSensitive: Bool = true, variables: AASASubstitutionVariables? = AASASubstitutionVariables()) {
        self.source = source
        self.role = role
        self.caseSensitive = caseSensitive
        let output = PatternTokenizer.tokenize(source, variables: variables, foldingCase: !caseSensitive)
        let tokens = role == .urlPath ? PathSlashRules.trimmed(output.tokens) : output.tokens
        let tailStart = role == .urlPath ? PathSlashRules.optionalTailStart(of: tokens) : nil
        self.tokens = tokens
        writtenTokens = role == .urlPath ? output.tokens : tokens
        optionalTailStart = tailStart
        var problem = output.problem
        if problem == nil {
            let size = WildcardProgram.size(of: tokens)
            if size > Self.maximumProgramSize { problem = .tooComplex(size) }
        }
        self.problem = problem
        if problem != nil {
            strategy = .never
        } else if tokens == [.anyRun] {
            strategy = .everything
        } else if let literal = Self.literalScalars(tokens) {
            strategy = .literal(literal)
        } else if let program = WildcardProgram(tokens: tokens, foldsCase: !caseSensitive, optionalTailStart: tailStart, maximumSize: Self.maximumProgramSize) {
            strategy = .automaton(program)
        } else {
            strategy = .never
        }
    }

    public var description: String { source }

    /// Whether the pattern accepts `text` (a path when the role is ``Role/urlPath``).
    public func matches(_ text: String) -> Bool {
        switch role {
        case .urlPath: matches(prepared: PathSlashRules.trimmed(text))
        case .text: matches(prepared: Array(text.unicodeScalars))
        }
    }

    /// Matches text already prepared for the role (path slashes trimmed), not yet case-folded.
    func matches(prepared text: [Unicode.Scalar]) -> Bool {
        switch strategy {
        case .never: return false
        case .everything: return true
        case .literal(let expected):
            guard expected.count == text.count else { return false }
            for (wanted, actual) in zip(expected, text) where wanted != (caseSensitive ? actual : CaseFolding.fold(actual)) {
                return false
            }
            return true
        case .automaton(let program): return program.matches(text)
        }
    }

    /// The fewest characters an accepted text can have; used to explain why an empty value fails.
    public var minimumLength: Int {
        let whole = PatternToken.minimumLength(of: tokens)
        guard let optionalTailStart else { return whole }
        return min(whole, PatternToken.minimumLength(of: Array(tokens.prefix(optionalTailStart))))
    }

    /// Whether the pattern has no wildcard or variable, so it only accepts its own text.
    public var isLiteral: Bool { Self.literalScalars(tokens) != nil && problem == nil }

    /// Whether the pattern accepts every text (`*`, or `/*` for a path).
    public var matchesEverything: Bool { problem == nil && tokens == [.anyRun] }

    private static func literalScalars(_ tokens: [PatternToken]) -> [Unicode.Scalar]? {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(tokens.count)
        for token in tokens {
            guard case .scalar(let scalar) = token else { return nil }
            scalars.append(scalar)
        }
        return scalars
    }
}
