/// Why a pattern can never match anything.
///
/// Decision: Apple says `$(` always starts a substitution reference, so a reference that names no
/// variable or is never closed makes the pattern unmatchable rather than literal text; the
/// validator reports each case as an error, so nobody relies on this silently.
public enum AASAPatternProblem: Sendable, Hashable, CustomStringConvertible {
    /// `$(name)` names neither a custom nor a predefined variable.
    case unknownVariable(String)
    /// `$(` without a closing `)`.
    case unterminatedVariable
    /// The expanded pattern is larger than ``AASAPattern/maximumProgramSize`` instructions.
    case tooComplex(Int)

    public var description: String {
        switch self {
        case .unknownVariable(let name): "the variable $(\(name)) is not defined"
        case .unterminatedVariable: "a \"$(\" is never closed with \")\""
        case .tooComplex(let size): "the pattern expands to \(size) matching steps, more than the \(AASAPattern.maximumProgramSize) allowed"
        }
    }
}
