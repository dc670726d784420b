import Foundation

/// The admin listener's bearer token. Never printed: its description is redacted, so a token cannot
/// reach a log or an error message through string interpolation.
public struct AdminToken: Sendable, Equatable, CustomStringConvertible {
    /// The environment variable that holds the token (it wins over `server.admin.tokenFile`).
    public static let variable = "LINKHOST_ADMIN_TOKEN"
    /// Shorter tokens are refused: an admin token guards every logged hit.
    public static let minimumLength = 16

    public let bytes: [UInt8]

    /// A token from its text; `nil` when shorter than `minimumLength` or holding whitespace or control characters.
    public init?(_ text: String) {
        guard text.count >= Self.minimumLength, text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else { return nil }
        bytes = Array(text.utf8)
    }

    public var description: String { "[admin token, \(bytes.count) bytes]" }

    /// What is wrong with a token text, for messages that must not repeat it.
    static func problem(with text: String) -> String {
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) { return "it holds spaces or control characters" }
        return "it is \(text.count) characters long; use at least \(minimumLength) (e.g. `openssl rand -hex 32`)"
    }

    /// The token the server runs the admin listener with: `LINKHOST_ADMIN_TOKEN` when set, else the
    /// config's token file; `nil` (admin off) when neither. Throws when the variable is set but unusable.
    public static func resolve(environment: [String: String], settings: AdminSettings) throws(AdminTokenError) -> AdminToken? {
        if let text = environment[variable] {
            guard let token = AdminToken(text) else { throw AdminTokenError(description: "\(variable) is unusable: \(problem(with: text))") }
            return token
        }
        return settings.fileToken
    }
}

/// An admin token that cannot be used; says why without showing it.
public struct AdminTokenError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
