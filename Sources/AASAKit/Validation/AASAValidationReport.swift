/// Everything the validator found in one file, and the document when it could be read.
public struct AASAValidationReport: Sendable {
    /// Findings in a stable order: file-level first, then in document order per check.
    public let findings: [AASAFinding]
    /// The parsed file; `nil` when the bytes are not a JSON object (then a finding says why).
    public let document: AASADocument?

    public init(findings: [AASAFinding], document: AASADocument?) {
        self.findings = findings
        self.document = document
    }

    public var errors: [AASAFinding] { findings.filter { $0.severity == .error } }
    public var warnings: [AASAFinding] { findings.filter { $0.severity == .warning } }
    /// Whether anything would keep iOS from using the file as written.
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// The findings with one code.
    public func findings(_ code: AASAValidationCode) -> [AASAFinding] { findings.filter { $0.code == code } }
}
