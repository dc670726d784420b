/// An account resource (RFC 8555 §7.1.2).
public struct ACMEAccount: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case valid, deactivated, revoked
    }

    public var status: Status
    public var contact: [String]?
    public var orders: String?
}
