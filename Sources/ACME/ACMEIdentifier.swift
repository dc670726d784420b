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
