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
