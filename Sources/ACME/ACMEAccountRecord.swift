/// The registered account, saved so a restart signs with `kid` at once instead of asking again.
public struct ACMEAccountRecord: Codable, Sendable, Equatable {
    public var directoryURL: String
    public var accountURL: String

    public init(directoryURL: String, accountURL: String) {
        self.directoryURL = directoryURL
        self.accountURL = accountURL
    }
}
