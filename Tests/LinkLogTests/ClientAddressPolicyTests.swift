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
}
