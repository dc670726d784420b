/// An ACME problem document (RFC 8555 §6.7, RFC 7807): what the server said went wrong.
public struct ACMEProblem: Codable, Sendable, Equatable, CustomStringConvertible {
    /// A URI; ACME's own are `urn:ietf:params:acme:error:<name>`.
    public var type: String
    public var detail: String?
    public var status: Int?
    /// The identifier a subproblem is about.
    public var identifier: ACMEIdentifier?
    /// Per-identifier problems of a request about several (RFC 8555 §6.7.1).
    public var subproblems: [ACMEProblem]?

    public init(type: String, detail: String? = nil, status: Int? = nil, identifier: ACMEIdentifier? = nil, subproblems: [ACMEProblem]? = nil) {
        self.type = type
        self.detail = detail
        self.status = status
        self.identifier = identifier
        self.subproblems = subproblems
    }

    static let acmeNamespace = "urn:ietf:params:acme:error:"

    /// The ACME error name (`badNonce`, `rateLimited`, `unauthorized` …), `nil` for a type outside
    /// ACME's namespace.
    public var acmeName: String? {
        type.hasPrefix(Self.acmeNamespace) ? String(type.dropFirst(Self.acmeNamespace.count)) : nil
    }

    public var isBadNonce: Bool { acmeName == "badNonce" }
    public var isRateLimited: Bool { acmeName == "rateLimited" }

    public var description: String {
        var text = acmeName ?? type
        if let detail { text += ": " + detail }
        for subproblem in subproblems ?? [] {
            text += "; " + (subproblem.identifier.map { $0.value + ": " } ?? "") + subproblem.description
        }
        return text
    }
}
