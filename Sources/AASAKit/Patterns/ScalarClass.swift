/// The one-character sets behind `$(alpha)`, `$(upper)`, `$(lower)`, `$(alnum)`, `$(digit)` and
/// `$(xdigit)`; each of their alternatives is a single ASCII character, so a set test is exact.
enum ScalarClass: Sendable, Hashable {
    case alpha, upper, lower, alnum, digit, xdigit

    /// Whether `scalar` belongs to the set. With `foldingCase`, `scalar` has already been folded to
    /// lower case, so the test also accepts its upper-case twin (`$(upper)` then accepts `q`).
    func contains(_ scalar: Unicode.Scalar, foldingCase: Bool) -> Bool {
        if containsExactly(scalar) { return true }
        guard foldingCase, scalar.value >= 0x61, scalar.value <= 0x7A, let upper = Unicode.Scalar(scalar.value - 0x20) else { return false }
        return containsExactly(upper)
    }

    /// Whether every member of `other` is a member of this set (used by the shadowed-rule check).
    func isSuperset(of other: ScalarClass) -> Bool {
        if self == other { return true }
        switch self {
        case .alpha: return other == .upper || other == .lower
        case .alnum: return other != .xdigit
        case .xdigit: return other == .digit
        default: return false
        }
    }

    private func containsExactly(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        let isUpper = value >= 0x41 && value <= 0x5A
        let isLower = value >= 0x61 && value <= 0x7A
        let isDigit = value >= 0x30 && value <= 0x39
        switch self {
        case .alpha: return isUpper || isLower
        case .upper: return isUpper
        case .lower: return isLower
        case .alnum: return isUpper || isLower || isDigit
        case .digit: return isDigit
        case .xdigit: return isDigit || (value >= 0x41 && value <= 0x46) || (value >= 0x61 && value <= 0x66)
        }
    }
}
