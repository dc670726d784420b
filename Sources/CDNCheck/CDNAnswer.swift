/// What the CDN answered for one host: status, body, and the headers that say how old its copy
/// is and, for a refusal, why.
public struct CDNAnswer: Sendable {
    public let status: Int
    public let body: [UInt8]
    /// `Age`: seconds the CDN has held this copy.
    public let age: Int?
    /// `Last-Modified`, as sent.
    public let lastModified: String?
    /// `Apple-Failure-Reason` (`SWCERR00101 Bad HTTP Response: 404 Not Found`): why the CDN has no
    /// copy, when it says.
    public let failureReason: String?
    /// `Apple-Failure-Details` (`{"status":"404 Not Found"}`).
    public let failureDetails: String?

    public init(status: Int, body: [UInt8], age: Int? = nil, lastModified: String? = nil, failureReason: String? = nil, failureDetails: String? = nil) {
        self.status = status
        self.body = body
        self.age = age
        self.lastModified = lastModified
        self.failureReason = failureReason
        self.failureDetails = failureDetails
    }
}
