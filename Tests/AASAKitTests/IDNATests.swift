import AASAKit
import Testing

/// Host names compared in one form: lower case, NFC, every international label as its `xn--`
/// A-label; invalid labels refused with the label named.
@Suite("International host names")
struct IDNATests {
    @Test(arguments: [
        ("bücher.example", "xn--bcher-kva.example"),
        ("BÜCHER.Example", "xn--bcher-kva.example"),
        ("bu\u{308}cher.example", "xn--bcher-kva.example"),  // decomposed ü, composed by NFC
        ("xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("XN--BCHER-KVA.example", "xn--bcher-kva.example"),
        ("bücher.example.", "xn--bcher-kva.example."),
        ("bücher。example", "xn--bcher-kva.example"),
        ("münchen.de", "xn--mnchen-3ya.de"),
        ("例え.テスト", "xn--r8jz45g.xn--zckzah"),
        ("пример.рф", "xn--e1afmkfd.xn--p1ai"),
        ("faß.de", "xn--fa-hia.de"),
        ("l·l.example", "xn--ll-0ea.example"),
        ("example.com", "example.com"),
        ("Example.COM", "example.com"),
        ("under_score.example", "under_score.example"),
        ("192.0.2.1", "192.0.2.1"),
        ("::1", "::1"),
    ])
    func asciiForms(host: String, ascii: String) throws {
        #expect(try IDNA.asciiHost(host) == ascii)
    }

    @Test(arguments: [
        ("xn--zz.example", #"the label "xn--zz" starts with xn-- but is not valid Punycode"#),
        ("xn--abc.example", #"the label "xn--abc" stands for "���", which holds U+0082, which IDNA 2008 does not allow"#),
        ("xn--bcher-kva!.example", "is not valid Punycode"),
        ("XN--BCHER-KVB.example", #"the label "xn--bcher-kvb" stands for"#),
        ("a..example", "empty label"),
        (".example", "empty label"),
        ("a☃.example", #"the label "a☃" holds U+2603 (☃), which IDNA 2008 does not allow"#),
        ("bü cher.example", "holds U+0020"),
        ("-bücher.example", "starts or ends with a hyphen"),
        ("bü--cher.example", "hyphens in its third and fourth positions"),
        ("\u{301}bücher.example", "starts with a combining mark (U+0301)"),
        ("bü\u{200D}cher.example", "ZERO WIDTH JOINER (U+200D) that does not follow a virama"),
        ("ａbü.example", "compatibility or case variant"),  // fullwidth a
        ("a\u{640}ü.example", "U+0640"),
        ("ü·x.example", "middle dot"),
        ("\(String(repeating: "ü", count: 60)).example", "more than 63"),
        ("\(String(repeating: "a", count: 64)).example", "longer than 63 characters"),
    ])
    func invalidLabelsAreNamed(host: String, words: String) {
        guard let refusal = idnaRefusal(of: host) else { return }
        #expect(refusal.hasPrefix("\"\(host)\" is not a valid host name: "), "\(refusal)")
        #expect(refusal.contains(words), "\(refusal)")
    }

    @Test(arguments: [
        ("https://xn--bcher-kva.example/x", "bücher.example"),
        ("https://bücher.example/x", "xn--bcher-kva.example"),
        ("https://BÜCHER.example/x", "bücher.example"),
        ("https://b%C3%BCcher.example/x", "bücher.example"),
        ("https://bücher.example:443/x", "xn--bcher-kva.example"),
    ])
    func domainAndURLMatchWhicheverWayTheyAreWritten(url: String, domain: String) throws {
        let matcher = try Fixtures.matcher(LinkEligibilityTests.everything)
        #expect(try matcher.decision(url, domain: domain) == .match)
    }

    @Test func anotherIDNIsAnotherHostAndSaysItsASCIIForm() throws {
        let result = try Fixtures.matcher(LinkEligibilityTests.everything).match(
            "https://bucher.example/x", options: AASAMatchOptions(domain: "bücher.example"))
        #expect(result.decision == .none)
        #expect(result.explanation == #"the URL's host "bucher.example" is not "bücher.example" (xn--bcher-kva.example), the domain the file is served for"#)
    }

    @Test func invalidHostsAreRefusedWithTheLabel() throws {
        #expect(throws: AASAURLError.self) { try AASAURL("https://xn--zz.example/x") }
        do {
            _ = try AASAURL("https://xn--zz.example/x")
        } catch {
            #expect(error.description.contains(#"has an invalid host: the label "xn--zz""#), "\(error)")
        }
        #expect(throws: IDNAError.self) { try AASAMatchOptions.validateDomain("a☃.example:8443") }
        try AASAMatchOptions.validateDomain("bücher.example:8443")
        try AASAMatchOptions.validateDomain("[::1]:8443")
    }

    /// A colon made any host pass unchanged as an IPv6 literal, non-ASCII and all (the idna fuzz
    /// target's first finding, Fuzz/idna/regressions/colon-host-not-ipv6).
    @Test(arguments: ["::1\u{FFFD}", "::1\u{BC}", "evil.example:", "a b::1"])
    func aColonMakesAnIPv6LiteralOnlyWithHexDigits(host: String) throws {
        let refusal = try #require(idnaRefusal(of: host))
        #expect(refusal.contains("has a ':' but is not an IPv6 address"), "\(refusal)")
        #expect(throws: AASAURLError.self) { try AASAURL("https://[\(host)]/x") }
        #expect(try IDNA.asciiHost("2001:DB8::192.0.2.1") == "2001:db8::192.0.2.1")
    }
}

/// Why `IDNA.asciiHost` refuses `host`; `nil`, with an issue recorded, when it accepts it.
func idnaRefusal(of host: String) -> String? {
    do {
        let ascii = try IDNA.asciiHost(host)
        Issue.record("\(host) was accepted as \(ascii)")
        return nil
    } catch {
        return error.description
    }
}
