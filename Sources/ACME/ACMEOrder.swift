import Foundation

/// An order (RFC 8555 §7.1.3): a request for one certificate naming `identifiers`.
public struct ACMEOrder: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case pending, ready, processing, valid, invalid
    }

    public var status: Status
    /// RFC 3339; kept as text (the client only shows it).
    public var expires: String?
    public var identifiers: [ACMEIdentifier]
    public var authorizations: [String]
    public var finalize: String
    public var certificate: String?
    public var error: ACMEProblem?

    public init(
        status: Status, expires: String? = nil, identifiers: [ACMEIdentifier], authorizations: [String], finalize: String, certificate: String? = nil,
        error: ACMEProblem? = nil
    ) {
        self.status = status
        self.expires = expires
        self.identifiers = identifiers
        self.authorizations = authorizations
        self.finalize = finalize
        self.certificate = certificate
        self.error = error
    }
}

/// What a certificate names (RFC 8555 §9.7.7): here always a DNS name.
public struct ACMEIdentifier: Codable, Sendable, Equatable, Hashable {
    public var type: String
    public var value: String

    public init(type: String = "dns", value: String) {
        self.type = type
        self.value = value
    }

    public static func dns(_ name: String) -> ACMEIdentifier { ACMEIdentifier(type: "dns", value: name) }
}
