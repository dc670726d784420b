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
    }

    /// All placeholders.
    public var placeholders: [String] { TextTemplate.placeholders(in: text) }

    /// The app URL for decoded `values`, with `extraQuery` items (pass-through parameters such as
    /// `noseen=1`) appended; `nil` when a required value is missing.
    public func expand(_ values: [String: String], extraQuery: [(name: String, value: String)] = []) -> String? {
        var encoded: [String: String] = [:]
        for (name, value) in values { encoded[name] = PercentCoding.encode(value) }
        for name in requiredPlaceholders where (values[name] ?? "").isEmpty { return nil }
        var url = TextTemplate.fill(base, with: encoded)
        var query: [String] = []
        for (item, names) in zip(queryItems, itemPlaceholders) {
            if names.contains(where: { (values[$0] ?? "").isEmpty }) { continue }
            let name = TextTemplate.fill(item.name, with: encoded)
            query.append(item.value.map { name + "=" + TextTemplate.fill($0, with: encoded) } ?? name)
        }
        for item in extraQuery where !queryItems.contains(where: { $0.name == item.name }) {
            query.append(PercentCoding.encode(item.name) + "=" + PercentCoding.encode(item.value))
        }
        if !query.isEmpty { url += "?" + query.joined(separator: "&") }
        return url
    }

    public var description: String { text }
}
