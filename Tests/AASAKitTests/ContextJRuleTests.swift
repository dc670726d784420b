import AASAKit
import Testing

/// RFC 5892 appendix A.1 and A.2: ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER are valid right
/// after a virama, and the non-joiner also between letters that would join; nowhere else.
@Suite("IDNA joiners (CONTEXTJ)")
struct ContextJRuleTests {
    @Test(arguments: [
        ("क्\u{200D}ष.example", "xn--11b2ezcw70k.example"),  // Devanagari KA, VIRAMA, ZWJ, SSA (A.2)
        ("क्\u{200C}ष.example", "xn--11b2ezcs70k.example"),  // the same with ZWNJ (A.1, virama)
        ("می\u{200C}خواهم.example", "xn--mgbn2ecje63gr19l.example"),  // Persian: FARSI YEH (D), ZWNJ, KHAH (D)
        ("بَ\u{200C}ب.example", "xn--ngba7iz95i.example"),  // BEH (D), FATHA (T), ZWNJ, BEH (D)
        ("xn--11b2ezcw70k.example", "xn--11b2ezcw70k.example"),
    ])
    func joinersWhereTheRulesAllowThem(host: String, ascii: String) throws {
        #expect(try IDNA.asciiHost(host) == ascii)
    }

    @Test(arguments: [
        ("bü\u{200D}cher.example", "holds ZERO WIDTH JOINER (U+200D) that does not follow a virama", "appendix A.2"),
        ("क\u{200D}ष.example", "ZERO WIDTH JOINER (U+200D) that does not follow a virama", "appendix A.2"),
        ("bü\u{200C}cher.example", "holds ZERO WIDTH NON-JOINER (U+200C) that neither follows a virama", "appendix A.1"),
        ("ا\u{200C}ب.example", "ZERO WIDTH NON-JOINER (U+200C)", "appendix A.1"),  // ALEF joins back only (R)
        ("ب\u{200C}ا\u{200C}.example", "ZERO WIDTH NON-JOINER (U+200C)", "appendix A.1"),  // the first is allowed, the second follows ALEF
        ("\u{200C}ب.example", "ZERO WIDTH NON-JOINER (U+200C)", "appendix A.1"),  // first in the label
        ("कि\u{200D}ष.example", "ZERO WIDTH JOINER", "appendix A.2"),  // after a vowel sign (combining class 0), not a virama
    ])
    func joinersElsewhereAreRefusedWithTheRule(host: String, words: String, rule: String) {
        guard let refusal = idnaRefusal(of: host) else { return }
        #expect(refusal.hasPrefix("\"\(host)\" is not a valid host name: the label "), "\(refusal)")
        #expect(refusal.contains(words), "\(refusal)")
        #expect(refusal.contains("(RFC 5892, \(rule))"), "\(refusal)")
    }
}
