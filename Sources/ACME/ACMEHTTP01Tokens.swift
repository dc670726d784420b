import Synchronization

/// The HTTP-01 answers of one process, in memory: an `ACMEChallengeResponder` the flow publishes
/// to, read synchronously by the HTTP listener's handler (which must not wait).
public final class ACMEHTTP01Tokens: ACMEChallengeResponder {
    private let answers = Mutex<[String: String]>([:])

    public init() {}

    /// The folder of the answers (RFC 8555 §8.3).
    public static let pathPrefix = "/.well-known/acme-challenge/"

    public func publish(token: String, keyAuthorization: String, for identifier: String) {
        answers.withLock { $0[token] = keyAuthorization }
    }

    public func withdraw(token: String) {
        _ = answers.withLock { $0.removeValue(forKey: token) }
    }

    /// The key authorization to answer for the token at `path`, `nil` when the path is not a
    /// published challenge's.
    public func keyAuthorization(forPath path: String) -> String? {
        guard path.hasPrefix(Self.pathPrefix) else { return nil }
        return keyAuthorization(forToken: String(path.dropFirst(Self.pathPrefix.count)))
    }

    public func keyAuthorization(forToken token: String) -> String? {
        answers.withLock { $0[token] }
    }

    /// How many tokens are published now.
    public var count: Int { answers.withLock { $0.count } }
}

/// Where HTTP-01 answers are published: the plain HTTP listener serves
/// `/.well-known/acme-challenge/<token>` with the key authorization (RFC 8555 §8.3).
///
/// The flow publishes a token before it tells the server to validate and withdraws it once the
/// order is done or failed. Publishing the same token again must be harmless: a resumed order
/// publishes again, because an in-memory responder forgot everything with the restart.
public protocol ACMEChallengeResponder: Sendable {
    func publish(token: String, keyAuthorization: String, for identifier: String) async throws
    func withdraw(token: String) async
}
