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
///
/// It runs for every page and app URL a request makes, so it scans UTF-8 bytes: `{` and `}` are
/// ASCII and never part of another character's encoding, and going by `Character` (grapheme
/// clusters) cost more than the rest of the page.
public enum TextTemplate {
    /// `text` with each `{name}` replaced by `values[name]`; unknown names stay as written.
    public static func fill(_ text: String, with values: [String: String]) -> String {
        let utf8 = text.utf8
        guard var open = utf8.firstIndex(of: UInt8(ascii: "{")) else { return text }
        var result = ""
        var start = utf8.startIndex
        while true {
            let afterOpen = utf8.index(after: open)
            guard let close = utf8[afterOpen...].firstIndex(of: UInt8(ascii: "}")) else { break }
            result += text[start..<open]
            let name = text[afterOpen..<close]
            if let value = values[String(name)] { result += value } else { result += text[open...close] }
            start = utf8.index(after: close)
            guard let next = utf8[start...].firstIndex(of: UInt8(ascii: "{")) else { break }
            open = next
        }
        result += text[start...]
        return result
    }

    /// The `{name}` placeholders in `text`.
    public static func placeholders(in text: String) -> [String] {
        let utf8 = text.utf8
        var names: [String] = []
        var start = utf8.startIndex
        while let open = utf8[start...].firstIndex(of: UInt8(ascii: "{")) {
            let afterOpen = utf8.index(after: open)
            guard let close = utf8[afterOpen...].firstIndex(of: UInt8(ascii: "}")) else { break }
            names.append(String(text[afterOpen..<close]))
            start = utf8.index(after: close)
        }
        return names
    }
}
