import Foundation

/// The view tokens (`lh_view`) a fallback page carries, found in its text: after `lh_view=` in a
/// link, or `lh_view%3D` inside an encoded install referrer. For tests that compare pages whose
/// links differ only by each view's token.
public enum ViewTokens {
    private static let pattern = try! NSRegularExpression(pattern: "lh_view(=|%3D)([A-Za-z0-9_-]{16})")

    /// Every token in `text`, in order (one per place, so a page's token appears several times).
    public static func all(in text: String) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in Range(match.range(at: 2), in: text).map { String(text[$0]) } }
    }

    /// `text` with every token replaced by `TOKEN`.
    public static func masked(_ text: String) -> String {
        pattern.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "lh_view$1TOKEN")
    }

    /// `url` with `lh_view=token` added to its query, as a page adds it.
    public static func adding(_ token: String, to url: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "lh_view=" + token
    }

    /// `url` without its `lh_view` item: `?lh_view=…` and `&lh_view=…` go, the rest stays.
    public static func removed(from url: String) -> String {
        var result = url
        for token in all(in: url) {
            result = result.replacingOccurrences(of: "&lh_view=\(token)", with: "").replacingOccurrences(of: "?lh_view=\(token)&", with: "?")
                .replacingOccurrences(of: "?lh_view=\(token)", with: "")
        }
        return result
    }
}
