import OrderedJSON

/// One problem found in an AASA file: a stable code, where it is, what is wrong and how to fix it.
public struct AASAFinding: Sendable, Hashable, CustomStringConvertible {
    public let code: AASAValidationCode
    /// Where in the document, as a JSON path (`applinks.details[0].components[2]`); `$` for the file.
    public let jsonPath: JSONPath
    /// What is wrong, in one sentence.
    public let message: String
    /// What to change.
    public let fix: String

    public init(_ code: AASAValidationCode, at jsonPath: JSONPath, _ message: String, fix: String) {
        self.code = code
        self.jsonPath = jsonPath
        self.message = message
        self.fix = fix
    }

    /// The code's severity.
    public var severity: AASASeverity { code.severity }

    /// The JSON path as text, for machine-readable output.
    public var path: String { jsonPath.description }

    /// `error AASA010 applinks.details[0].appID: message (fix: ...)`
    public var description: String {
        "\(severity.rawValue) \(code.rawValue) \(path): \(message) (fix: \(fix))"
    }
}
