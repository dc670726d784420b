import OrderedJSON

/// One problem found in an assetlinks.json file: a stable code, where it is, what is wrong and the fix.
public struct AssetLinksFinding: Sendable, Hashable, CustomStringConvertible {
    public let code: AssetLinksValidationCode
    /// Where in the document (`[0].target.sha256_cert_fingerprints[1]`); `$` for the file.
    public let jsonPath: JSONPath
    public let message: String
    public let fix: String

    public init(_ code: AssetLinksValidationCode, at jsonPath: JSONPath, _ message: String, fix: String) {
        self.code = code
        self.jsonPath = jsonPath
        self.message = message
        self.fix = fix
    }

    public var severity: AssetLinksSeverity { code.severity }

    /// The JSON path as text.
    public var path: String { jsonPath.description }

    /// `error AL022 [0].target.sha256_cert_fingerprints[0]: message (fix: ...)`
    public var description: String { "\(severity.rawValue) \(code.rawValue) \(path): \(message) (fix: \(fix))" }
}
