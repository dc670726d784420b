/// The ACME server's directory (RFC 8555 §7.1.1): where each operation is.
public struct ACMEDirectory: Codable, Sendable, Equatable {
    public struct Meta: Codable, Sendable, Equatable {
        public var termsOfService: String?
        public var website: String?
        public var caaIdentities: [String]?
        public var externalAccountRequired: Bool?
    }

    public var newNonce: String
    public var newAccount: String
    public var newOrder: String
    public var revokeCert: String?
    public var keyChange: String?
    public var meta: Meta?

    public init(newNonce: String, newAccount: String, newOrder: String, revokeCert: String? = nil, keyChange: String? = nil, meta: Meta? = nil) {
        self.newNonce = newNonce
        self.newAccount = newAccount
        self.newOrder = newOrder
        self.revokeCert = revokeCert
        self.keyChange = keyChange
        self.meta = meta
    }
}
