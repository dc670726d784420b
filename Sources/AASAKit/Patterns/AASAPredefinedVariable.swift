/// The substitution variables every AASA file can use without defining them.
public enum AASAPredefinedVariable: String, CaseIterable, Sendable {
    case alpha, upper, lower, alnum, digit, xdigit, region, lang

    /// The alternatives the variable stands for, each one string (`$(digit)` → `"0"` … `"9"`).
    public var values: [String] {
        switch self {
        case .region: return ISOCodeTables.regions
        case .lang: return ISOCodeTables.languages
        default:
            guard let set = scalarClass else { return [] }
            return (0x20..<0x7F).compactMap(Unicode.Scalar.init).filter { set.contains($0, foldingCase: false) }.map { String($0) }
        }
    }

    /// The single-character set for the ASCII classes; `nil` for the code tables.
    var scalarClass: ScalarClass? {
        switch self {
        case .alpha: .alpha
        case .upper: .upper
        case .lower: .lower
        case .alnum: .alnum
        case .digit: .digit
        case .xdigit: .xdigit
        case .region, .lang: nil
        }
    }
}
