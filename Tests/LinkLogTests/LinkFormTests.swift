import LinkLog
import Testing

/// `LinkForm`: what a logged link looks like once digit runs and hashed secrets are made alike.
@Suite("Link forms")
struct LinkFormTests {
    @Test func everyRunOfDigitsBecomesOneDigitInNamesValuesAndSegments() {
        #expect(LinkForm.query("threadid=734512&pagenumber=12") == "threadid=0&pagenumber=0")
        #expect(LinkForm.query("goto=post&postid=9") == "goto=post&postid=0")
        #expect(LinkForm.query("p1=a2b33") == "p0=a0b0")
        #expect(LinkForm.path("/u/123/posts/45") == "/u/0/posts/0")
        #expect(LinkForm.path("/showthread.php") == "/showthread.php")
        #expect(LinkForm.query("") == "")
    }

    @Test func percentEscapesKeepTheirDigits() {
        // `%3A` is a colon and `%31` a one: cutting their digits would change the decoded text.
        #expect(LinkForm.query("q=%31%3A2024") == "q=%31%3A0")
        #expect(LinkForm.query("q=100%") == "q=0%")
        #expect(LinkForm.query("q=%4") == "q=%0")
    }

    @Test func hashedSecretsBecomeOneTokenThatStillReadsAsASecret() {
        let token = SecretHasher(key: Array(repeating: 7, count: 32)).token(for: "SECRET42")
        let encoded = token.replacingOccurrences(of: ":", with: "%3A")
        #expect(LinkForm.query("code=\(token)&from=qr7") == "code=\(LinkForm.secretToken)&from=qr0")
        #expect(LinkForm.query("code=\(encoded)") == "code=\(LinkForm.secretToken)")
        #expect(LinkForm.path("/invite/\(token)") == "/invite/\(LinkForm.secretToken)")
        #expect(LinkForm.isHashedSecret(Substring(LinkForm.secretToken)))
        // A log without a key writes `-` for a secret: it stays `-`.
        #expect(LinkForm.query("code=-") == "code=-")
        #expect(LinkForm.isHashedSecret("-") && !LinkForm.isHashedSecret("hmac:12") && !LinkForm.isHashedSecret("hmac%3Azz"))
    }
}
