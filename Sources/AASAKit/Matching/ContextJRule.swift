/// The CONTEXTJ rules of IDNA 2008 (RFC 5892 appendix A.1 and A.2): ZERO WIDTH NON-JOINER and
/// ZERO WIDTH JOINER are valid in a label only where they change how the letters around them are
/// shaped, which is after a virama (Indic scripts) and, for the non-joiner, between two letters
/// that would otherwise join (Arabic-script and similar).
enum ContextJRule {
    static let nonJoiner: Unicode.Scalar = "\u{200C}"
    static let joiner: Unicode.Scalar = "\u{200D}"

    /// Why the joiner at `position` in `label` may not stand there (text that follows `the label
    /// "…"`), or `nil` when its rule allows it.
    static func problem(at position: Int, in label: [Unicode.Scalar]) -> String? {
        let scalar = label[position]
        // Both rules: right after a character whose Canonical_Combining_Class is Virama (9).
        if position > 0, label[position - 1].properties.canonicalCombiningClass == .virama { return nil }
        if scalar == joiner {
            return "holds ZERO WIDTH JOINER (U+200D) that does not follow a virama, the only place IDNA 2008 allows it (RFC 5892, appendix A.2)"
        }
        // ZWNJ: (Joining_Type L or D) (T)* ZWNJ (T)* (Joining_Type R or D).
        let before = label[..<position].last { JoiningType($0) != .transparent }.map(JoiningType.init)
        let after = label[(position + 1)...].first { JoiningType($0) != .transparent }.map(JoiningType.init)
        let joinsBefore = before == .leftJoining || before == .dualJoining
        let joinsAfter = after == .rightJoining || after == .dualJoining
        if joinsBefore && joinsAfter { return nil }
        return "holds ZERO WIDTH NON-JOINER (U+200C) that neither follows a virama nor stands between a letter that joins forward"
            + " (Joining_Type L or D) and one that joins back (R or D), transparent marks aside (RFC 5892, appendix A.1)"
    }
}

/// A code point's Joining_Type (ArabicShaping.txt), which RFC 5892's rule for ZERO WIDTH
/// NON-JOINER is written in. Raw values are the order `scripts/generate-unicode-tables` numbers
/// them in.
enum JoiningType: UInt8, Sendable {
    case nonJoining  // U
    case dualJoining  // D
    case rightJoining  // R
    case leftJoining  // L
    case joinCausing  // C
    case transparent  // T

    /// The type of `scalar` in Unicode ``UnicodePropertyRuns/unicodeVersion`` (U for code points
    /// that version does not list).
    init(_ scalar: Unicode.Scalar) {
        self = JoiningType(rawValue: UnicodePropertyRuns.joiningTypes.value(of: scalar)) ?? .nonJoining
    }
}
