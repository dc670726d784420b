/// Which list a rule index points into.
public enum AASARuleKind: String, Sendable, Hashable {
    /// `details[i].components[j]`
    case component
    /// `details[i].paths[j]` (legacy)
    case legacyPath
}
