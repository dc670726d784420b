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
