import OrderedJSON

/// Why bytes cannot be used as an AASA file at all. Anything less (a broken entry, a wrong type)
/// is a diagnostic on an otherwise usable ``AASADocument`` instead.
public enum AASADocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JSON; carries the parser's line, column and path.
    case notJSON(JSONSyntaxError)
    /// JSON whose top level is not an object; carries the kind found ("an array").
    case rootNotObject(found: String)
    /// Bytes that start like a CMS (PKCS #7) signed envelope but cannot be unwrapped; carries why.
    case malformedSignature(String)

    public var description: String {
        switch self {
        case .notJSON(let error) where error.kind == .nestingTooDeep:
            "the file is nested deeper than \(AASADocument.maximumNestingDepth) levels (line \(error.line), column \(error.column), under \(error.path.shortened().text)); an AASA file needs a handful"
        case .notJSON(let error): "not valid JSON: \(error)"
        case .rootNotObject(let found): "the top level is \(found); an apple-app-site-association file must be a JSON object"
        case .malformedSignature(let reason): "the file starts like a CMS (PKCS #7) signed envelope but cannot be unwrapped: \(reason)"
        }
    }

    /// The stable validation code for this failure.
    public var code: AASAValidationCode {
        switch self {
        case .notJSON, .malformedSignature: .notJSON
        case .rootNotObject: .rootNotObject
        }
    }
}
