import PercentCoding

/// The custom-scheme URL a rule opens in the app, e.g.
/// `awful://threads/{threadid}/pages/{pagenumber}?userid={userid}`.
///
/// Placeholders before `?` must always have a value (their parameters are required); a query item
/// whose only content is a placeholder (`userid={userid}`) is left out when the value is absent.
/// Every value is percent-encoded, so a value can never add a path segment, a query item or a
/// fragment, nor change the scheme.
public struct AppURLTemplate: Sendable, Equatable, CustomStringConvertible {
    /// The template as written.
    public let text: String
    /// The scheme (`awful`), lower-cased.
    public let scheme: String
    let base: String
    let queryItems: [(name: String, value: String?)]
    /// Placeholders before the query: their values must always exist.
    public let requiredPlaceholders: [String]
    /// Each query item's placeholders (value and name): the item is left out when one lacks a value.
    private let itemPlaceholders: [[String]]
    /// `base` and the query items split at their placeholders once (an app URL is made for every new link).
    private let basePieces: TemplatePieces
    private let itemPieces: [(name: TemplatePieces, value: TemplatePieces?)]

    public static func == (lhs: AppURLTemplate, rhs: AppURLTemplate) -> Bool { lhs.text == rhs.text }

    /// Parses a template; the reason when it cannot be used.
    public static func parse(_ text: String) -> Result<AppURLTemplate, PathTemplateError> {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            return .failure(PathTemplateError("an app URL must start with the app's scheme and \"://\", e.g. \"rowhni://addfriend?code={code}\""))
        }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z"),
            scheme.utf8.allSatisfy({
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            })
        else {
            return .failure(PathTemplateError("\"\(text[..<colon])\" is not a URL scheme"))
        }
        if text.contains("#") { return .failure(PathTemplateError("an app URL template must not have a fragment")) }
        let base: String
        var items: [(String, String?)] = []
        if let question = text.firstIndex(of: "?") {
            base = String(text[..<question])
            for item in QueryString(text[text.index(after: question)...], decoding: .asWritten) {
                items.append((item.name, item.value))
            }
        } else {
            base = text
        }
        return .success(AppURLTemplate(text: text, scheme: scheme, base: base, queryItems: items))
    }

    private init(text: String, scheme: String, base: String, queryItems: [(String, String?)]) {
        self.text = text
        self.scheme = scheme
        self.base = base
        self.queryItems = queryItems
        requiredPlaceholders = TextTemplate.placeholders(in: base)
        itemPlaceholders = queryItems.map { TextTemplate.placeholders(in: $0.1 ?? "") + TextTemplate.placeholders(in: $0.0) }
        basePieces = TemplatePieces(base)
        itemPieces = queryItems.map { (TemplatePieces($0.0), $0.1.map(TemplatePieces.init)) }
    }

    /// All placeholders.
    public var placeholders: [String] { TextTemplate.placeholders(in: text) }

    /// The app URL for decoded `values`, with `extraQuery` items (pass-through parameters such as
    /// `noseen=1`) appended; `nil` when a required value is missing.
    public func expand(_ values: LinkValues, extraQuery: [(name: String, value: String)] = []) -> String? {
        for name in requiredPlaceholders where (values[name] ?? "").isEmpty { return nil }
        // Every value percent-encoded as it is placed; items joined by `&` after one `?`.
        var url = TextBuilder(capacity: text.utf8.count + 32)
        basePieces.fill(values, percentEncoded: true, into: &url)
        var separator = UInt8(ascii: "?")
        for (pieces, names) in zip(itemPieces, itemPlaceholders) {
            if names.contains(where: { (values[$0] ?? "").isEmpty }) { continue }
            url.append(ascii: separator)
            separator = UInt8(ascii: "&")
            pieces.name.fill(values, percentEncoded: true, into: &url)
            if let value = pieces.value {
                url.append(ascii: UInt8(ascii: "="))
                value.fill(values, percentEncoded: true, into: &url)
            }
        }
        for item in extraQuery where !queryItems.contains(where: { $0.name == item.name }) {
            url.append(ascii: separator)
            separator = UInt8(ascii: "&")
            url.append(percentEncoding: item.name)
            url.append(ascii: UInt8(ascii: "="))
            url.append(percentEncoding: item.value)
        }
        return url.text
    }

    public var description: String { text }
}
