import Foundation
import HTTPServing
import LinkhostKit
import Synchronization

/// Decides whether an admin request is authenticated — a bearer token (API, metrics, scripts) or a
/// dashboard session cookie — and runs logins and logouts. Token comparison is constant-time;
/// failed logins are limited per client address; refusals are counted for the metrics.
final class AdminAuthenticator: Sendable {
    /// Five tries at once, then one every twelve seconds, per client address: enough for a person
    /// who mistyped, far too slow to guess a 16-character token.
    static let loginBurst = 5
    static let loginRefillPerSecond = 1.0 / 12

    private let token: AdminToken
    let cookie: SessionCookie
    private let limiter = TokenBucketLimiter(maximumKeys: 16_384)
    /// Nonces of sessions logged out before they expired, with their expiry (pruned as they pass).
    private let revoked = Mutex<[String: Int64]>([:])
    private let refusals = Atomic<Int>(0)
    private let failedLogins = Atomic<Int>(0)

    init(token: AdminToken, sessionHours: Int, secure: Bool) {
        self.token = token
        cookie = SessionCookie(token: token, lifetimeSeconds: sessionHours * 3600, secure: secure)
    }

    /// Whether `request` carries the token (`Authorization: Bearer …`) or a live session cookie.
    func isAuthenticated(_ request: HTTPRequest, now: Int64 = Int64(Date().timeIntervalSince1970)) -> Bool {
        if let authorization = request.headers["Authorization"] {
            return bearerMatches(authorization)
        }
        guard let value = SessionCookie.value(in: request.headers["Cookie"]), let session = cookie.verify(value, now: now) else { return false }
        return revoked.withLock { $0[session.nonce] == nil }
    }

    /// Whether `request` carries the token itself (`Authorization: Bearer …`, compared in constant
    /// time): for the API's changes, which a session cookie alone must not make (a cross-site form
    /// would carry the cookie).
    func carriesToken(_ request: HTTPRequest) -> Bool {
        request.headers["Authorization"].map(bearerMatches) ?? false
    }

    /// Counts an answer given without valid authentication.
    func countRefusal() { refusals.add(1, ordering: .relaxed) }

    /// Answers given without valid authentication so far, and failed logins among them.
    var refusalCount: Int { refusals.load(ordering: .relaxed) }
    var failedLoginCount: Int { failedLogins.load(ordering: .relaxed) }

    /// What a login attempt with `presented` gets.
    enum LoginOutcome: Equatable {
        /// The `Set-Cookie` value of the new session.
        case accepted(setCookie: String)
        case refused
        case limited(retryAfterSeconds: Int)
    }

    func logIn(presented: String, clientAddress: String?, now: Int64 = Int64(Date().timeIntervalSince1970)) -> LoginOutcome {
        // Every attempt takes a token, so a guesser is slowed whether or not one guess was right.
        if case .limited(let seconds) = limiter.take(clientAddress ?? "unknown", burst: Self.loginBurst, perSecond: Self.loginRefillPerSecond) {
            failedLogins.add(1, ordering: .relaxed)
            return .limited(retryAfterSeconds: seconds)
        }
        guard ConstantTimeComparison.equal(Array(presented.utf8), token.bytes) else {
            failedLogins.add(1, ordering: .relaxed)
            return .refused
        }
        return .accepted(setCookie: cookie.setCookie(cookie.issue(now: now).value))
    }

    /// Ends the session in `request`'s cookie, if any, for good.
    func logOut(_ request: HTTPRequest, now: Int64 = Int64(Date().timeIntervalSince1970)) {
        guard let value = SessionCookie.value(in: request.headers["Cookie"]), let session = cookie.verify(value, now: now) else { return }
        revoked.withLock { table in
            table = table.filter { $0.value > now }
            table[session.nonce] = session.expiry
        }
    }

    private func bearerMatches(_ authorization: String) -> Bool {
        let scheme = "bearer "
        guard authorization.utf8.count > scheme.utf8.count, authorization.lowercased().hasPrefix(scheme) else { return false }
        let presented = authorization.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
        return ConstantTimeComparison.equal(Array(presented.utf8), token.bytes)
    }
}
