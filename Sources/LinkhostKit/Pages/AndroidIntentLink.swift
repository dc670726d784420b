import Foundation
import PercentCoding

/// The `intent://` URL of an Android page's open button: Chrome (and browsers that follow it) opens
/// the app with `package` directly for `url`, and when the app is not installed goes to
/// `S.browser_fallback_url` instead of showing an error.
enum AndroidIntentLink {
    /// `url` is `scheme://rest` (an https universal link, or the app's custom-scheme URL).
    static func make(url: String, package: String, fallbackURL: String) -> String {
        let schemeEnd = url.range(of: "://")
        let scheme = schemeEnd.map { String(url[..<$0.lowerBound]) } ?? "https"
        var rest = schemeEnd.map { String(url[$0.upperBound...]) } ?? url
        // The intent's own fields start at the first '#': one in the URL would cut it short.
        rest = rest.replacingOccurrences(of: "#", with: "%23")
        // Extra values are percent-decoded by the browser, and ';' and '=' delimit the fields:
        // everything but unreserved characters is encoded.
        let fallback = PercentCoding.encode(fallbackURL, .component)
        return "intent://\(rest)#Intent;scheme=\(scheme);package=\(package);S.browser_fallback_url=\(fallback);end"
    }
}
