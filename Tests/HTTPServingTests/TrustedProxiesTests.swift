import HTTPServing
import Testing

/// Whose address a request has: the peer's, unless the peer is a trusted proxy that says otherwise.
@Suite("Trusted proxies")
struct TrustedProxiesTests {
    private let proxies = TrustedProxies(["10.0.0.0/8", "127.0.0.1", "fd00::/8"].compactMap(TrustedProxies.Network.init))

    private func client(peer: String, _ fields: [(String, String)]) -> String? {
        proxies.clientAddress(peer: peer, headers: HTTPHeaders(fields))
    }

    @Test func networksParseAddressesAndPrefixesAndNothingElse() {
        for text in ["10.0.0.0/8", "192.0.2.7", "192.0.2.0/24", "0.0.0.0/0", "::1", "2001:db8::/32", "::/0"] {
            #expect(TrustedProxies.Network(text) != nil, "\(text)")
        }
        for text in ["", "10.0.0.0/33", "::1/129", "10.0.0.0/-1", "10.0.0.0/", "example.com", "10.0.0/8", "10.0.0.0/8/8", "10.0.0.0/٨"] {
            #expect(TrustedProxies.Network(text) == nil, "\(text)")
        }
    }

    @Test func prefixesMatchBitByBit() {
        let network = TrustedProxies([TrustedProxies.Network("192.0.2.128/25")!])
        #expect(network.trusts("192.0.2.128"))
        #expect(network.trusts("192.0.2.255"))
        #expect(!network.trusts("192.0.2.127"))
        #expect(!network.trusts("::ffff:c000:280"), "an IPv6 text is not the IPv4 network")
        #expect(proxies.trusts("fd12:3456::1"))
        #expect(!proxies.trusts("fe80::1"))
    }

    @Test func anUntrustedPeerIsTheClientWhateverItClaims() {
        #expect(client(peer: "203.0.113.9", [("X-Forwarded-For", "6.6.6.6")]) == "203.0.113.9")
        #expect(client(peer: "203.0.113.9", [("Forwarded", "for=6.6.6.6")]) == "203.0.113.9")
        #expect(TrustedProxies().clientAddress(peer: "10.1.2.3", headers: ["X-Forwarded-For": "6.6.6.6"]) == "10.1.2.3")
    }

    @Test func aTrustedPeerNamesTheRightMostUntrustedHop() {
        #expect(client(peer: "127.0.0.1", [("X-Forwarded-For", "198.51.100.4")]) == "198.51.100.4")
        // The visitor wrote the left part: only what the proxies appended counts.
        #expect(client(peer: "10.0.0.2", [("X-Forwarded-For", "6.6.6.6, 198.51.100.4, 10.0.0.9")]) == "198.51.100.4")
        #expect(client(peer: "10.0.0.2", [("X-Forwarded-For", "6.6.6.6"), ("X-Forwarded-For", "198.51.100.4")]) == "198.51.100.4")
        // Every hop trusted: the left-most, the first proxy's own client.
        #expect(client(peer: "10.0.0.2", [("X-Forwarded-For", "10.9.9.9, 10.0.0.7")]) == "10.9.9.9")
        // No field at all: the proxy itself.
        #expect(client(peer: "10.0.0.2", []) == "10.0.0.2")
    }

    @Test func forwardedFollowsRFC7239AndWinsOverXForwardedFor() {
        #expect(client(peer: "10.0.0.2", [("Forwarded", "for=192.0.2.60;proto=http;by=203.0.113.43")]) == "192.0.2.60")
        #expect(client(peer: "10.0.0.2", [("Forwarded", #"for="[2001:db8:cafe::17]:4711""#)]) == "2001:db8:cafe::17")
        #expect(client(peer: "10.0.0.2", [("Forwarded", "for=6.6.6.6, For=192.0.2.61:8080")]) == "192.0.2.61")
        #expect(client(peer: "10.0.0.2", [("X-Forwarded-For", "198.51.100.4"), ("Forwarded", "for=192.0.2.60")]) == "192.0.2.60")
        #expect(client(peer: "10.0.0.2", [("Forwarded", "for=::ffff:192.0.2.9")]) == "192.0.2.9")
    }

    @Test func anEntryThatIsNoAddressStopsAtTheNearestTrustedHop() {
        #expect(client(peer: "10.0.0.2", [("Forwarded", "for=unknown")]) == "10.0.0.2")
        #expect(client(peer: "10.0.0.2", [("Forwarded", "for=_hidden, for=10.0.0.5")]) == "10.0.0.5")
        #expect(client(peer: "10.0.0.2", [("X-Forwarded-For", "198.51.100.4, <script>")]) == "10.0.0.2")
        #expect(client(peer: "10.0.0.2", [("Forwarded", "proto=https")]) == "10.0.0.2")
        #expect(client(peer: "10.0.0.2", [("X-Forwarded-For", "")]) == "10.0.0.2")
    }
}
