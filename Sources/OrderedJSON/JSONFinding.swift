/// One problem a validator found in a JSON document (an AASA file, an assetlinks.json): a stable
/// code, where it is (a JSON path), what is wrong in one sentence, and what to change. The AASA and
/// assetlinks.json validators report in this one shape, each with its own codes.
public struct JSONFinding<Code: FindingCode>: Sendable, Hashable, CustomStringConvertible {
    public let code: Code
    /// Where in the document (`applinks.details[0].components[2]`); `$` for the whole file.
    public let jsonPath: JSONPath
    /// What is wrong, in one sentence.
    public let message: String
    /// What to change.
    public let fix: String

    public init(_ code: Code, at jsonPath: JSONPath, _ message: String, fix: String) {
        self.code = code
        self.jsonPath = jsonPath
        self.message = message
        self.fix = fix
    }

    /// The code's severity.
    public var severity: FindingSeverity { code.severity }

    /// The JSON path as text, for machine-readable output.
    public var path: String { jsonPath.description }

    /// `error AASA010 applinks.details[0].appID: message (fix: ...)`
    public var description: String {
        "\(severity.rawValue) \(code.rawValue) \(path): \(message) (fix: \(fix))"
    }
}

/// A validator's stable finding code (`AASA010`, `AL022`), which carries its severity.
public protocol FindingCode: RawRepresentable<String>, Sendable, Hashable {
    var severity: FindingSeverity { get }
}

/// How bad a finding is: an error breaks the file for the platform (links do not open, the app is
/// not verified); a warning is legal but risky.
public enum FindingSeverity: String, Sendable, Hashable, Comparable {
    case error
    case warning

    /// Errors sort first.
    public static func < (lhs: FindingSeverity, rhs: FindingSeverity) -> Bool {
        lhs == .error && rhs == .warning
    }
}
