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
    private static let staticTokenPrefix: StaticString = "hmac:"
    /// The key length, in bytes.
    public static let keyLength = 32

    /// The HMAC with the key already absorbed (its padded inner and outer blocks hashed), made
    /// once: each token starts from a copy. Setting the key up per token (`HMAC(key:)` pads and
    /// hashes it) cost about 30,000 instructions, twice for every logged invitation.
    private let prepared: PreparedHMAC

    /// A hasher with a given key (tests, or a key kept elsewhere). The key should be 32 random bytes.
    public init(key: [UInt8]) {
        precondition(!key.isEmpty, "a secret hasher needs a key")
        prepared = PreparedHMAC(HMAC<SHA256>(key: SymmetricKey(data: key)))
    }

    /// A hasher with this installation's key, read from `keyFile`, or created there (32 random bytes,
    /// mode 0600, folder made if missing) on first use. Throws a `LogError` that names the file when
    /// it cannot be read, has the wrong size, or cannot be made.
    public init(keyFile: String) throws {
        self.init(key: try SecretKeyFile.loadOrCreate(at: keyFile))
    }

    /// Where the key of a log database lives: beside it, as `<database>.key`.
    public static func keyFilePath(forDatabase databasePath: String) -> String {
        databasePath + ".key"
    }

    /// The token for `secret`: the same secret always gives the same token under the same key.
    public func token(for secret: String) -> String {
        var authenticator = prepared.hmac
        var secret = secret
        secret.withUTF8 { authenticator.update(data: UnsafeRawBufferPointer($0)) }
        return HexText.lowercase(Array(authenticator.finalize().prefix(8)), prefix: Self.staticTokenPrefix)
    }
}

/// A keyed HMAC never changed after it is made, shared by the threads that log. `@unchecked
/// Sendable` because swift-crypto does not mark `HMAC` `Sendable`: it is a value whose hash states
/// are copied on write, and the one kept here is a `let` that is only ever copied, so no thread
/// writes what another reads.
private final class PreparedHMAC: @unchecked Sendable {
    let hmac: HMAC<SHA256>

    init(_ hmac: HMAC<SHA256>) {
        self.hmac = hmac
    }
}
