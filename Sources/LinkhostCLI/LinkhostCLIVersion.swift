import LinkhostKit

enum LinkhostCLIVersion {
    static let text = "linkhost \(LinkhostVersion.current)"
}
