import Foundation

/// Why an ACME operation failed, typed so a caller can decide: wait (`retryAfter`), start a new
/// order, or fix a setting.
public enum ACMEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a problem document (other than the badNonce the client retries).
    case server(ACMEProblem, url: String, retryAfter: Date?)
    /// The server refused for a rate limit; try again at `retryAfter` (the server's `Retry-After`,
    /// or the client's default backoff when it sent none).
    case rateLimited(ACMEProblem, url: String, retryAfter: Date)
    /// Validation of an identifier failed: the order cannot succeed and a new one is needed.
    case authorizationInvalid(identifier: String, problem: ACMEProblem?)
    /// The order became invalid (an authorization failed, or finalization was refused).
    case orderInvalid(url: String, problem: ACMEProblem?)
    /// An authorization offers no http-01 challenge (a wildcard name, or a CA without HTTP-01).
    case noHTTP01Challenge(identifier: String)
    /// An answer that is not what RFC 8555 says it is (wrong status, not JSON, a missing header).
    case unexpectedResponse(url: String, status: Int, detail: String)
    /// The request did not get an answer (connection, TLS, timeout).
    case transport(url: String, detail: String)
    /// Polling gave up: the server kept the resource pending longer than the order's time limit.
    case timedOut(url: String, detail: String)
    /// The downloaded chain is not a certificate for this order's names and key.
    case badCertificate(detail: String)
    /// The storage folder could not be read or written, or holds something unreadable.
    case storage(path: String, detail: String)
    /// The challenge responder refused to publish a token.
    case challengeResponder(detail: String)
    /// A request that needs the account's URL (`kid`) came before the account was registered.
    case noAccount
    /// The task running the order was cancelled while it waited.
    case cancelled

    /// When to try again: the server's `Retry-After` (or the rate-limit default); `nil` when the
    /// server gave no time (the caller backs off by its own schedule, see `ACMEBackoff`).
    public var retryAfter: Date? {
        switch self {
        case .server(_, _, let date): date
        case .rateLimited(_, _, let date): date
        default: nil
        }
    }

    /// The problem document the server sent, if this error came with one.
    public var problem: ACMEProblem? {
        switch self {
        case .server(let problem, _, _), .rateLimited(let problem, _, _): problem
        case .authorizationInvalid(_, let problem), .orderInvalid(_, let problem): problem
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .server(let problem, let url, _): "the ACME server refused \(url): \(problem)"
        case .rateLimited(let problem, let url, let date): "rate limited at \(url) until \(date): \(problem)"
        case .authorizationInvalid(let identifier, let problem):
            "validation of \(identifier) failed" + (problem.map { ": \($0)" } ?? "")
        case .orderInvalid(let url, let problem): "the order \(url) is invalid" + (problem.map { ": \($0)" } ?? "")
        case .noHTTP01Challenge(let identifier): "the authorization of \(identifier) offers no http-01 challenge"
        case .unexpectedResponse(let url, let status, let detail): "unexpected answer from \(url) (HTTP \(status)): \(detail)"
        case .transport(let url, let detail): "no answer from \(url): \(detail)"
        case .timedOut(let url, let detail): "gave up waiting on \(url): \(detail)"
        case .badCertificate(let detail): "the issued certificate is not usable: \(detail)"
        case .storage(let path, let detail): "ACME storage \(path): \(detail)"
        case .challengeResponder(let detail): "the challenge responder failed: \(detail)"
        case .noAccount: "no ACME account registered yet"
        case .cancelled: "cancelled"
        }
    }
}
