/// How bad a finding is: an error keeps Android from verifying the app; a warning is legal but risky.
public enum AssetLinksSeverity: String, Sendable, Hashable {
    case error
    case warning
}
