import LinkLog
import LinkLogSQLite
import Testing

@Suite("Client address policy")
struct ClientAddressPolicyTests {
    @Test(
        "addresses are cut to their network",
        arguments: [
            ("203.0.113.77", "203.0.113.0"),
            ("10.0.0.1", "10.0.0.0"),
            ("255.255.255.255", "255.255.255.0"),
            ("2001:db8:1:2:3:4:5:6", "2001:db8:1::"),
            ("2001:0db8:0001:ffff::1", "2001:db8:1::"),
            ("[2001:db8:abcd:12::1]", "2001:db8:abcd::"),
            ("fe80::1%eth0", "fe80::"),
            ("::1", "::"),
            ("::ffff:198.51.100.7", "198.51.100.0"),
            ("::FFFF:198.51.100.7", "198.51.100.0"),
            (" 192.0.2.9 ", "192.0.2.0"),
        ])
    func truncation(input: String, expected: String) {
        #expect(ClientAddressPolicy.truncate(input) == expected)
        #expect(ClientAddressPolicy.truncated.apply(to: input) == expected)
    }

    @Test(
        "junk is nil, never a crash",
        arguments: [
            "", " ", "localhost", "203.0.113", "203.0.113.7:443", "203.0.113.256", "01.2.3.4", "1.2.3.4.5",
            "2001:db8::1::2", "[::1", "%eth0", "::ffff:1.2.3", String(repeating: "1", count: 500), "\u{0}", "🙂",
        ])
    func junk(input: String) {
        #expect(ClientAddressPolicy.truncate(input) == nil)
    }

    @Test("omit stores nothing; truncated is the default choice of CLI names")
    func omit() {
        #expect(ClientAddressPolicy.omit.apply(to: "203.0.113.77") == nil)
        #expect(ClientAddressPolicy.truncated.apply(to: nil) == nil)
        #expect(ClientAddressPolicy.allCases.map(\.rawValue) == ["truncated", "omit"])
    }

    @Test("the dotted-quad path answers every plain IPv4 address exactly as the general parser does")
    func dottedQuadAgreesWithTheParser() {
        // Octets that are valid, too large, zero-padded, empty or not digits, joined by one to five
        // dots: a deterministic sweep of 20,000 candidates around the fast path's edges.
        let pieces = ["0", "00", "01", "7", "9", "10", "99", "100", "199", "255", "256", "300", "999", "1000", "", "a", " 1", "1 ", "+1"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var answeredFast = 0
        for _ in 0..<20_000 {
            let count = 1 + next(5)
            let candidate = (0..<count).map { _ in pieces[next(pieces.count)] }.joined(separator: ".")
            let general = ClientAddressPolicy.truncatedByParsing(candidate)
            let fast = ClientAddressPolicy.truncatedDottedQuad(candidate)
            if let fast {
                answeredFast += 1
                #expect(fast == general, "\(candidate)")
            } else if !candidate.contains(" ") {
                // Without spaces to trim, anything the parser accepts is a plain quad the fast path must take.
                #expect(general == nil, "\(candidate): the parser gives \(general ?? "nil")")
            }
        }
        #expect(answeredFast > 100)
    }
}
