import PercentCoding
import Testing

@Suite("Percent-decoding")
struct PercentDecodeTests {
    private func decoded(_ text: String, plusAsSpace: Bool = false) -> PercentDecodedText {
        PercentCoding.decode(text, plusAsSpace: plusAsSpace)
    }

    @Test func textWithoutEscapesComesBackUnchanged() {
        #expect(decoded("/plain/path-1.html") == PercentDecodedText(text: "/plain/path-1.html", isMalformed: false))
        #expect(decoded("café 哈") == PercentDecodedText(text: "café 哈", isMalformed: false))
        #expect(decoded("") == PercentDecodedText(text: "", isMalformed: false))
    }

    @Test(arguments: [
        ("%", "%"),
        ("a%", "a%"),
        ("%4", "%4"),
        ("a%4", "a%4"),
        ("%4g", "%4g"),
        ("%zz", "%zz"),
        ("%%41", "%A"),
        ("100%", "100%"),
    ])
    func brokenEscapesStayAsWrittenAndAreReported(input: String, text: String) {
        #expect(decoded(input) == PercentDecodedText(text: text, isMalformed: true))
        #expect(decoded(input).validText == nil)
    }

    @Test func escapesDecodeInEitherCase() {
        #expect(decoded("%41%62%2f%2F") == PercentDecodedText(text: "Ab//", isMalformed: false))
        #expect(decoded("%C3%BC") == PercentDecodedText(text: "ü", isMalformed: false))
        #expect(decoded("%c3%bc") == PercentDecodedText(text: "ü", isMalformed: false))
        #expect(decoded("%F0%9F%98%80").text == "😀")
    }

    @Test func percentZeroZeroIsTheNulCharacter() {
        #expect(decoded("a%00b") == PercentDecodedText(text: "a\u{0}b", isMalformed: false))
    }

    @Test func plusIsASpaceOnlyInFormDecodingAndAnEncodedPlusIsAlwaysAPlus() {
        #expect(decoded("a+b").text == "a+b")
        #expect(decoded("a+b", plusAsSpace: true).text == "a b")
        #expect(decoded("%2B").text == "+")
        #expect(decoded("%2B", plusAsSpace: true).text == "+")
        #expect(decoded("1+%2B+1", plusAsSpace: true) == PercentDecodedText(text: "1 + 1", isMalformed: false))
        #expect(decoded("a+%", plusAsSpace: true) == PercentDecodedText(text: "a %", isMalformed: true))
    }

    @Test func bytesThatAreNotUTF8BecomeReplacementCharactersAndAreReported() {
        #expect(decoded("%FF") == PercentDecodedText(text: "\u{FFFD}", isMalformed: true))
        #expect(decoded("x%FFy") == PercentDecodedText(text: "x\u{FFFD}y", isMalformed: true))
        // Overlong "/" must never decode to "/": each of its bytes is replaced.
        #expect(decoded("%C0%AF") == PercentDecodedText(text: "\u{FFFD}\u{FFFD}", isMalformed: true))
        // A sequence cut short is one replacement character.
        #expect(decoded("%E0%A4") == PercentDecodedText(text: "\u{FFFD}", isMalformed: true))
        // A UTF-16 surrogate written as UTF-8 is not UTF-8.
        #expect(decoded("%ED%A0%80").isMalformed)
    }

    @Test func substringsDecodeLikeTheirText() {
        let text = "skip?q=caf%C3%A9"
        let value = text[text.index(text.startIndex, offsetBy: 7)...]
        #expect(PercentCoding.decode(value) == PercentDecodedText(text: "café", isMalformed: false))
    }
}
