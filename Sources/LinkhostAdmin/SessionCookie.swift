import Crypto
import Foundation
import LinkLog
import LinkhostKit

/// The dashboard's login cookie: `v1.<expiry>.<nonce>.<mac>`, an HMAC-SHA256 over the first three
/// parts. The MAC key is derived from the admin token, so a new token ends every session and
/// nothing needs storing to check one; logging out adds the nonce to a small in-memory list until
/// the cookie would have expired anyway.
package struct SessionCookie: Sendable {
    package static let name = "linkhost_session"

    /// Kept as bytes: swift-crypto's SymmetricKey is not Sendable.
    private let key: [UInt8]
    let lifetimeSeconds: Int
    let secure: Bool

    package init(token: AdminToken, lifetimeSeconds: Int, secure: Bool) {
        let derived = HMAC<SHA256>.authenticationCode(for: Array("linkhost admin session v1".utf8), using: SymmetricKey(data: token.bytes))
        key = Array(derived)
        self.lifetimeSeconds = lifetimeSeconds
        self.secure = secure
    }

    /// A new session's cookie value, valid from `now` (seconds since 1970) for the lifetime.
    package func issue(now: Int64) -> (value: String, nonce: String) {
        var nonce = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in nonce.indices { nonce[index] = generator.next() }
        let nonceText = HexText.lowercase(nonce)
        let payload = "v1.\(now + Int64(lifetimeSeconds)).\(nonceText)"
        return (payload + "." + mac(payload), nonceText)
    }

    /// The session's nonce and expiry when `value` is a cookie this server issued and it has not
    /// expired; `nil` otherwise.
    package func verify(_ value: String, now: Int64) -> (nonce: String, expiry: Int64)? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "v1", let expiry = Int64(parts[1]), parts[2].utf8.count == 32 else { return nil }
        let payload = parts[0...2].joined(separator: ".")
        guard ConstantTimeComparison.equal(Array(parts[3].utf8), Array(mac(payload).utf8)), expiry > now else { return nil }
        return (String(parts[2]), expiry)
    }

    /// The `Set-Cookie` value that stores `value`.
    func setCookie(_ value: String) -> String {
        "\(Self.name)=\(value); Path=/; Max-Age=\(lifetimeSeconds); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that removes the cookie.
    var clearCookie: String {
        "\(Self.name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// This cookie's value in a `Cookie` header, if present.
    package static func value(in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
        }
        return nil
    }

    private func mac(_ payload: String) -> String {
        HexText.lowercase(Array(HMAC<SHA256>.authenticationCode(for: Array(payload.utf8), using: SymmetricKey(data: key))))
    }
}
