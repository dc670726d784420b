/// A text in several languages (`["en": "Thread {threadid}", "de": "Thread {threadid}"]`), with
/// `{name}` placeholders filled from a link's parameters when a page is rendered.
public struct LocalizedText: Sendable, Equatable {
    /// Language code (`en`, `de`) → text.
    public var texts: [String: String]

    public init(_ texts: [String: String]) {
        self.texts = texts
    }

    /// The text in `language`, else in `fallback`, else any; `nil` only when there is no text.
    public func text(for language: String, fallback: String) -> String? {
        texts[language] ?? texts[fallback] ?? texts.sorted { $0.key < $1.key }.first?.value
    }

    /// Languages among `languages` this text lacks.
    public func missingLanguages(_ languages: [String]) -> [String] {
        languages.filter { texts[$0] == nil }
    }

    /// Placeholder names used in any language (`{threadid}` → `threadid`).
    public var placeholders: Set<String> {
        var names = Set<String>()
        for text in texts.values { names.formUnion(TextTemplate.placeholders(in: text)) }
        return names
    }
}

/// Fills `{name}` placeholders in plain text. The result is plain text: escaping for HTML is the
/// template engine's job where the text lands.
public enum TextTemplate {
    /// `text` with each `{name}` replaced by `values[name]`; unknown names stay as written.
    public static func fill(_ text: String, with values: [String: String]) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else {
                result += rest[open...]
                return result
            }
            let name = String(rest[afterOpen..<close])
            result += values[name] ?? "{\(name)}"
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }

    /// The `{name}` placeholders in `text`.
    public static func placeholders(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            names.append(String(rest[afterOpen..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
