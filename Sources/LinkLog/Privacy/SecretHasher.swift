import Crypto
import Glibc

/// Turns a secret (an invite code) into a token that can be counted and compared but not read:
/// HMAC-SHA256 under a random key that belongs to this installation, shown as `hmac:` and 16 hex
/// digits. A keyed hash, not a plain one, because invite codes are short (8 hex characters of a UUID,
/// 2³² values): anyone could reverse a plain hash of one by trying them all; without the key they cannot.
///
/// The token keeps 64 of the 256 bits. That is plenty to tell codes apart — two different codes
/// share a token with probability about n²/2⁶⁵ (under one in a billion for 100,000 codes) — while
/// staying short enough to read in a table.
public struct SecretHasher: Sendable {
    /// What every token starts with, so hashed values are recognisable in the log.
    public static let tokenPrefix = "hmac:"
    /// The key length, in bytes.
    public static let keyLength = 32

    // Kept as plain bytes because swift-crypto's SymmetricKey is not Sendable; making one per token
    // costs far less than the HMAC itself.
    private let key: [UInt8]

    /// A hasher with a given key (tests, or a key kept elsewhere). The key should be 32 random bytes.
    public init(key: [UInt8]) {
        precondition(!key.isEmpty, "a secret hasher needs a key")
        self.key = key
    }

    /// A hasher with this installation's key, read from `keyFile`, or created there (32 random bytes,
    /// mode 0600, folder made if missing) on first use. Throws a `LogError` that names the file when
    /// it cannot be read, has the wrong size, or cannot be made.
    public init(keyFile: String) throws {
        self.key = try SecretKeyFile.loadOrCreate(at: keyFile)
    }

    /// Where the key of a log database lives: beside it, as `<database>.key`.
    public static func keyFilePath(forDatabase databasePath: String) -> String {
        databasePath + ".key"
    }

    /// The token for `secret`: the same secret always gives the same token under the same key.
    public func token(for secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array(secret.utf8), using: SymmetricKey(data: key))
        return Self.tokenPrefix + HexText.lowercase(code.prefix(8))
    }
}
