import OrderedJSON

/// One result of `linkhost check`: a stable code, how bad it is, where, what and the fix.
public struct CheckFinding: Sendable, Hashable, CustomStringConvertible {
    public typealias Severity = FindingSeverity

    /// `AASA0xx` (an AASA file, see AASAKit), `AL0xx` (an assetlinks.json, see AssetLinks), `LH0xx`
    /// (file and rules disagree), `config` (the config).
    public let code: String
    public let severity: Severity
    /// The site the finding is about, when it is about one.
    public let site: String?
    public let path: String
    public let message: String
    public let fix: String

    public init(code: String, severity: Severity, site: String?, path: String, message: String, fix: String) {
        self.code = code
        self.severity = severity
        self.site = site
        self.path = path
        self.message = message
        self.fix = fix
    }

    public var description: String {
        "\(severity.rawValue) \(code) \(site.map { "[\($0)] " } ?? "")\(path): \(message) (fix: \(fix))"
    }

    /// The finding as a JSON object for `--json`.
    public var json: JSONValue {
        .object([
            JSONMember("code", .string(code)),
            JSONMember("severity", .string(severity.rawValue)),
            JSONMember("site", site.map { .string($0) } ?? .null),
            JSONMember("path", .string(path)),
            JSONMember("message", .string(message)),
            JSONMember("fix", .string(fix)),
        ])
    }
}
