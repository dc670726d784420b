import LinkhostAdmin
import LinkhostKit
import Testing

/// The dashboard's session cookie, in-process: found in a `Cookie` header and verified.
@Suite("Admin session cookie")
struct SessionCookieTests {
    let cookie = SessionCookie(token: AdminToken("test-admin-token-0123456789")!, lifetimeSeconds: 3600, secure: true)

    /// The header is read as bytes. A value opening with a combining mark (U+05BF after the "=")
    /// made one character with the "=", and the cookie was not found (the session-cookie fuzz
    /// target; Fuzz/session-cookie/regressions/combining-mark-after-equals).
    @Test(arguments: ["\u{5BF}\u{FFFD}", "v1.1.abc.def", "x\u{301}", "a=b", "\u{301}"])
    func aValueAmongOtherCookiesIsFoundByteForByte(value: String) {
        let header = "theme=dark; \(SessionCookie.name)=\(value); other=1"
        #expect(SessionCookie.value(in: header).map { Array($0.utf8) } == Array(value.utf8))
    }

    @Test func pairsAreTrimmedOfSpacesAndTabsAndMatchedByWholeName() {
        #expect(SessionCookie.value(in: "a=1;\t\(SessionCookie.name)=v1 \t") == "v1")
        #expect(SessionCookie.value(in: "x\(SessionCookie.name)=v1; \(SessionCookie.name)x=v2") == nil)
        #expect(SessionCookie.value(in: nil) == nil)
    }

    @Test func onlyTheIssuedCookieVerifiesAndOnlyWhileItLives() {
        let issued = cookie.issue(now: 1_000).value
        #expect(cookie.verify(issued, now: 1_000) != nil)
        #expect(cookie.verify(issued, now: 1_000 + 3_600) == nil)
        for offset in 0..<issued.utf8.count {
            var bytes = Array(issued.utf8)
            bytes[offset] ^= 0x01
            #expect(cookie.verify(String(decoding: bytes, as: UTF8.self), now: 1_000) == nil)
        }
    }
}
