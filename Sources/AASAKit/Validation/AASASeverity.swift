/// How bad a finding is: an error breaks links or is ignored by iOS; a warning is legal but risky.
public enum AASASeverity: String, Sendable, Hashable, Comparable {
    case error
    case warning

    public static func < (lhs: AASASeverity, rhs: AASASeverity) -> Bool {
        lhs == .error && rhs == .warning
    }
}
