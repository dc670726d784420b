import PercentCoding
import Testing

@Suite("Percent-encoding")
struct PercentEncodeTests {
    @Test func componentsKeepOnlyUnreservedCharacters() {
        #expect(PercentCoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentCoding.encode("a b/?&=#%+") == "a%20b%2F%3F%26%3D%23%25%2B")
        #expect(PercentCoding.encode("ü😀") == "%C3%BC%F0%9F%98%80")
        #expect(PercentCoding.encode("\u{0}\u{7F}") == "%00%7F")
        #expect(PercentCoding.encode("") == "")
    }

    @Test func aComponentDecodesBackToTheValue() {
        for value in ["a b", "100%", "%41", "1+1=2", "é\u{301}", "&\u{301}", "😀/?#[]"] {
            let encoded = PercentCoding.encode(value)
            #expect(PercentCoding.decode(encoded) == PercentDecodedText(text: value, isMalformed: false))
            #expect(PercentCoding.decode(encoded, plusAsSpace: true).text == value)
        }
    }

    @Test func pathAndQueryTextKeepsItsStructureAndValidEscapes() {
        #expect(PercentCoding.encode("/a/b?x=1&y=2;z=(3)*!$,:@", .pathAndQuery) == "/a/b?x=1&y=2;z=(3)*!$,:@")
        #expect(PercentCoding.encode("/a%20b?q=%C3%A9", .pathAndQuery) == "/a%20b?q=%C3%A9")
        #expect(PercentCoding.encode("/p?q=1+2", .pathAndQuery) == "/p?q=1+2")
    }

    @Test func pathAndQueryTextCannotLeaveAnAttribute() {
        #expect(PercentCoding.encode(#"/"><script>'x' \y"#, .pathAndQuery) == "/%22%3E%3Cscript%3E%27x%27%20%5Cy")
        #expect(PercentCoding.encode("/é\u{7}#", .pathAndQuery) == "/%C3%A9%07%23")
    }

    @Test(arguments: [("%", "%25"), ("/a%", "/a%25"), ("/a%4", "/a%254"), ("/%zz", "/%25zz"), ("/%4g", "/%254g")])
    func pathAndQueryTextEncodesAPercentThatStartsNoEscape(input: String, output: String) {
        #expect(PercentCoding.encode(input, .pathAndQuery) == output)
    }
}
