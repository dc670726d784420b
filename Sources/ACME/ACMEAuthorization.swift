/// An authorization (RFC 8555 §7.1.4): the proof, still owed or given, that the account controls
/// one identifier.
public struct ACMEAuthorization: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case pending, valid, invalid, deactivated, expired, revoked
    }

    public var identifier: ACMEIdentifier
    public var status: Status
    public var expires: String?
    public var challenges: [ACMEChallenge]
    public var wildcard: Bool?

    public init(identifier: ACMEIdentifier, status: Status, expires: String? = nil, challenges: [ACMEChallenge], wildcard: Bool? = nil) {
        self.identifier = identifier
        self.status = status
        self.expires = expires
        self.challenges = challenges
        self.wildcard = wildcard
    }

    /// The http-01 challenge, the one this client answers.
    public var http01: ACMEChallenge? { challenges.first { $0.type == ACMEChallenge.http01 } }
}
