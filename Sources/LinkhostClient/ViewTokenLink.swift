import Foundation

/// The view token a linkhost fallback page puts on every link it hands the app (`lh_view`): the
/// open button's custom-scheme URL, the copied link the app finds on the pasteboard after an
/// install, the QR code. `LinkhostClient.report` sends it with the URL, and the server pairs the
/// open with exactly that page view; these helpers are for an app that routes links itself and
/// wants the link as shared, without the token.
public enum ViewTokenLink {
    /// The query item's name.
    public static let parameterName = "lh_view"

    /// The token `url` carries, or `nil` when it has none (or more than one).
    public static func token(in url: URL) -> String? {
        let values = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.filter { $0.name == parameterName }.compactMap(\.value) ?? []
        return values.count == 1 ? values[0] : nil
    }

    /// `url` without its `lh_view` items (the rest of the query as it was); `url` itself when it has none.
    public static func removingToken(from url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let items = components.percentEncodedQueryItems,
            items.contains(where: { $0.name == parameterName })
        else { return url }
        let kept = items.filter { $0.name != parameterName }
        components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        return components.url ?? url
    }
}
