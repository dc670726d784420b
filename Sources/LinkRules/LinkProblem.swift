/// What is wrong with a link that a rule recognises but cannot serve (a broken link, answered 400).
public enum LinkProblem: Sendable, Equatable, CustomStringConvertible {
    /// A required parameter is absent or empty.
    case missing(parameter: String)
    /// A value is not of the parameter's type.
    case malformed(parameter: String, expected: ParameterType)
    /// A parameter is given more than once with different values.
    case repeated(parameter: String)
    /// A fixed parameter has another value (`goto=edit` where `goto=post` is needed).
    case wrongValue(parameter: String, expected: String)
    /// A parameter that must be absent is present.
    case unexpected(parameter: String)

    /// The parameter the problem is about.
    public var parameter: String {
        switch self {
        case .missing(let name), .malformed(let name, _), .repeated(let name), .wrongValue(let name, _), .unexpected(let name): name
        }
    }

    /// A short machine-friendly code for logs and tests.
    public var code: String {
        switch self {
        case .missing: "missing"
        case .malformed: "malformed"
        case .repeated: "repeated"
        case .wrongValue: "wrong_value"
        case .unexpected: "unexpected"
        }
    }

    public var description: String {
        switch self {
        case .missing(let name): "\(name) is missing"
        case .malformed(let name, let type): "\(name) must be \(type.requirement)"
        case .repeated(let name): "\(name) is given more than once"
        case .wrongValue(let name, let value): "\(name) must be \"\(value)\""
        case .unexpected(let name): "\(name) must not be given"
        }
    }
}
