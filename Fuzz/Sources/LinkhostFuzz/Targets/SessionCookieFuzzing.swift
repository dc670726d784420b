import LinkhostAdmin
import LinkhostKit

/// The dashboard's session cookie: found in a `Cookie` header (`SessionCookie.value(in:)`) and
/// verified. The input edits a freshly issued cookie (each pair of bytes: a position and a new
/// byte, or a cut): whatever the edit, only the cookie exactly as issued verifies, and a value put
/// in a header among other cookies is found again.
enum SessionCookieFuzzing {
    static let target = FuzzTarget(
        name: "session-cookie",
        summary: "SessionCookie header lookup and verification of edited cookies (no forgery, exact round trip)",
        maximumLength: 1024,
        run: run
    )

    static let now: Int64 = 1_790_000_000
    static let cookie = SessionCookie(token: AdminToken("fuzz-admin-token-0123456789")!, lifetimeSeconds: 3600, secure: true)
    /// A cookie issued now: it verifies now, and no longer once its lifetime is over.
    static let issued: String = {
        let value = cookie.issue(now: now).value
        FuzzReport.check(cookie.verify(value, now: now) != nil, "the issued cookie does not verify")
        FuzzReport.check(cookie.verify(value, now: now + 3600) == nil, "the issued cookie outlives its lifetime")
        return value
    }()

    static func run(_ bytes: [UInt8]) {
        var edited = Array(issued.utf8)
        var index = 0
        while index + 1 < bytes.count {
            let position = Int(bytes[index])
            if bytes[index + 1] == 0xFF {
                if position < edited.count { edited.removeSubrange(position...) }
            } else if position < edited.count {
                edited[position] = bytes[index + 1]
            } else {
                edited.append(bytes[index + 1])
            }
            index += 2
        }
        let value = String(decoding: edited, as: UTF8.self)
        let verified = cookie.verify(value, now: now)
        FuzzReport.check(verified == nil || value == issued, "an edited cookie verifies: \(FuzzReport.shown(value))")

        // The raw input as a whole Cookie header, and the edited value among other cookies.
        let header = String(decoding: bytes, as: UTF8.self)
        if let found = SessionCookie.value(in: header) {
            FuzzReport.check(
                Array(header.utf8).firstRange(of: Array((SessionCookie.name + "=" + found).utf8)) != nil,
                "found \(FuzzReport.shown(found)) that is not in \(FuzzReport.shown(header))")
            FuzzReport.check(cookie.verify(found, now: now) == nil || found == issued, "a header's cookie verifies: \(FuzzReport.shown(header))")
        }
        // Bytes, not Characters: ";" followed by a combining mark is one Character that is not ";",
        // yet the header still splits at that byte. Only spaces and tabs are trimmed around a value.
        let valueBytes = Array(value.utf8)
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        if !valueBytes.contains(0x3B), !(valueBytes.first.map(blank) ?? false), !(valueBytes.last.map(blank) ?? false) {
            let among = "theme=dark; \(SessionCookie.name)=\(value); other=1"
            FuzzReport.check(
                SessionCookie.value(in: among).map { Array($0.utf8) } == valueBytes,
                "\(FuzzReport.shown(value)) is not found in \(FuzzReport.shown(among))")
        }
    }
}
