import Testing

@testable import AASAKit

/// RFC 5893: every label of a name with a right-to-left label meets the six conditions of the
/// Bidi rule; names without one are not affected. Vectors: IANA's IDN test labels (إختبار,
/// טעסט) and one label per condition, each breaking only that condition.
@Suite("IDNA Bidi rule")
struct BidiRuleTests {
    @Test(arguments: [
        ("إختبار", "xn--kgbechtv"),  // IANA's Arabic test label
        ("טעסט", "xn--deba0ad"),  // IANA's Yiddish test label
        ("xn--kgbechtv.example", "xn--kgbechtv.example"),
        ("example.עברית", "example.xn--5dbqzzl"),  // LTR labels beside an RTL one: L first and last
        ("www2.עברית", "www2.xn--5dbqzzl"),  // an LTR label may end with a digit (condition 6)
        ("مثال١٢.example", "xn--mgbh0fb7lg.example"),  // AL then Arabic-Indic digits (AN) at the end
        ("א1.example", "xn--1-zhc.example"),  // an RTL label may end with EN (condition 3)
        ("אִ.example", "xn--cdb9c.example"),  // R and a trailing mark (NSM)
        ("א-ב.example", "xn----zhce.example"),  // a hyphen (ES) inside an RTL label
        ("3com.example", "3com.example"),  // not a Bidi domain name: the rule does not apply
        ("1ü.example", "xn--1-eha.example"),
    ])
    func bidiDomainNamesThatMeetTheRule(host: String, ascii: String) throws {
        #expect(try IDNA.asciiHost(host) == ascii)
    }

    @Test(arguments: [
        // Condition 1: the first character is L, R or AL.
        ("1א.example", #"the label "1א" starts with U+0031 (1), of class EN"#, "condition 1"),
        ("١مثال.example", #"starts with U+0661 (١), of class AN"#, "condition 1"),
        ("3com.עברית", #"the label "3com" starts with U+0033 (3), of class EN"#, "condition 1"),
        // Condition 2: no left-to-right letter in a right-to-left label (Latin mixed with Hebrew or Arabic).
        ("aא.example", #"the label "aא" is right-to-left (it holds U+05D0 (א), of class R) but also holds U+0061 (a), of class L"#, "condition 2"),
        ("אa.example", #"holds U+0061 (a), of class L"#, "condition 2"),
        ("مثالabc.example", #"the label "مثالabc" is right-to-left (it holds U+0645 (م), of class AL)"#, "condition 2"),
        ("xn--a-0hc.example", #"the label "xn--a-0hc" ("aא") is right-to-left"#, "condition 2"),
        // Condition 3: an RTL label ends with R, AL, EN or AN (marks aside).
        ("אʹ.example", #"ends with U+02B9 (ʹ), of class ON"#, "condition 3"),
        // Condition 4: EN and AN not both.
        ("א1١.example", #"mixes U+0031 (1), of class EN with U+0661 (١), of class AN"#, "condition 4"),
        // Condition 6: an LTR label of a Bidi domain name ends with L or EN (marks aside).
        ("aʹ.עברית", #"the label "aʹ" is left-to-right and ends with U+02B9 (ʹ), of class ON"#, "condition 6"),
    ])
    func labelsThatBreakTheRuleAreNamed(host: String, words: String, condition: String) {
        guard let refusal = idnaRefusal(of: host) else { return }
        #expect(refusal.hasPrefix("\"\(host)\" is not a valid host name: "), "\(refusal)")
        #expect(refusal.contains(words), "\(refusal)")
        #expect(refusal.contains("(RFC 5893, Bidi rule \(condition))"), "\(refusal)")
    }

    @Test func conditionFiveNamesTheClass() {
        // No character IDNA 2008 allows is of a class condition 5 refuses without also making the
        // label right-to-left, so the condition is checked on the rule itself.
        #expect(BidiRule.problem(in: ["a", "\t", "b"])?.contains("holds U+0009, of class S") == true)
        #expect(BidiRule.problem(in: ["a", "\t", "b"])?.contains("condition 5") == true)
        #expect(BidiRule.problem(in: ["a", "b"]) == nil)
    }

    @Test func codePointsNewerThanTheTablesAreRefused() {
        // U+10D40, a Garay digit, is Unicode 16.0 (the standard library knows it, the tables do not).
        #expect(throws: IDNAError.self) { try IDNA.asciiHost("a\u{10D40}.example") }
        do {
            _ = try IDNA.asciiHost("a\u{10D40}.example")
        } catch {
            #expect(error.description.contains("U+10D40 (\u{10D40}), which is newer than Unicode 15.0.0"), "\(error)")
        }
    }

    /// The generated tables' raw values agree with the enums (values from UnicodeData.txt and
    /// ArabicShaping.txt as published).
    @Test(
        arguments: [
            (0x41, BidiClass.leftToRight), (0x5D0, .rightToLeft), (0x627, .arabicLetter), (0x31, .europeanNumber), (0x2B, .europeanSeparator),
            (0x23, .europeanTerminator), (0x661, .arabicNumber), (0x2C, .commonSeparator), (0x301, .nonspacingMark), (0x200C, .boundaryNeutral),
            (0x2029, .paragraphSeparator), (0x9, .segmentSeparator), (0x20, .whiteSpace), (0x21, .otherNeutral), (0x202A, .leftToRightEmbedding),
            (0x202D, .leftToRightOverride), (0x202B, .rightToLeftEmbedding), (0x202E, .rightToLeftOverride), (0x202C, .popDirectionalFormat),
            (0x2066, .leftToRightIsolate), (0x2067, .rightToLeftIsolate), (0x2068, .firstStrongIsolate), (0x2069, .popDirectionalIsolate),
            (0x6F1, .europeanNumber), (0x4E00, .leftToRight), (0x9FFF, .leftToRight), (0x10FFFD, .leftToRight),
        ] as [(UInt32, BidiClass)])
    func bidiClassTable(codePoint: UInt32, bidiClass: BidiClass) throws {
        #expect(BidiClass(try #require(Unicode.Scalar(codePoint))) == bidiClass)
    }

    @Test func unassignedCodePointsHaveNoBidiClass() {
        #expect(BidiClass("\u{378}") == nil)
        #expect(BidiClass("\u{FFFF}") == nil)
        #expect(BidiClass("\u{10D40}") == nil)
    }

    @Test(
        arguments: [
            (0x628, JoiningType.dualJoining), (0x627, .rightJoining), (0xA872, .leftJoining), (0x640, .joinCausing), (0x200D, .joinCausing),
            (0x64E, .transparent), (0x301, .transparent), (0x41, .nonJoining), (0x200C, .nonJoining),
        ] as [(UInt32, JoiningType)])
    func joiningTypeTable(codePoint: UInt32, joiningType: JoiningType) throws {
        #expect(JoiningType(try #require(Unicode.Scalar(codePoint))) == joiningType)
    }
}
