import LinkRules

/// What a link becomes when it is put into a QR code (a desktop page's code, `linkhost link --qr`):
/// it carries `from=qrcode`, so the app and the hit log can tell scans from taps, whenever the log
/// tracks `from` (the default) and neither the rule nor the site gives that name a meaning of its own.
public enum QRCodeLink {
    /// The query item that marks a scanned link: `from=qrcode`.
    public static let sourceItem = (name: "from", value: "qrcode")

    /// The items to add after a link's own parameters: the source marker when it applies.
    public static func sourceItems(rule: LinkRule, site: SiteConfiguration, trackedParameters: [String]) -> [(name: String, value: String)] {
        let name = sourceItem.name
        guard trackedParameters.contains(name), rule.parameter(name) == nil, !site.router.passThrough.contains(where: { $0.name == name }) else { return [] }
        return [sourceItem]
    }
}
