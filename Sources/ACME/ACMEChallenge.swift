/// A challenge (RFC 8555 §7.1.5, §8): one way to prove control of an identifier.
public struct ACMEChallenge: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case pending, processing, valid, invalid
    }

    public static let http01 = "http-01"

    public var type: String
    public var url: String
    public var status: Status
    public var token: String?
    public var validated: String?
    public var error: ACMEProblem?

    public init(type: String, url: String, status: Status, token: String? = nil, validated: String? = nil, error: ACMEProblem? = nil) {
        self.type = type
        self.url = url
        self.status = status
        self.token = token
        self.validated = validated
        self.error = error
    }
}
