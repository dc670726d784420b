import PercentCoding

/// One URL cut up once per match call into exactly what rules compare: each part both as written
/// and percent-decoded, paths already slash-trimmed, query items split.
struct PreparedURL {
    struct QueryItem {
        let name: String
        /// `nil` for an item written without `=` (it reads as the empty string).
        let value: String?
        let valueScalars: [Unicode.Scalar]
    }

    /// One spelling (as written, or decoded) of every part.
    struct Parts {
        let pathText: String
        let path: [Unicode.Scalar]
        let queryText: String
        let query: [Unicode.Scalar]
        let items: [QueryItem]
        let fragmentText: String
        let fragment: [Unicode.Scalar]
    }

    let url: AASAURL
    let encoded: Parts
    let decoded: Parts

    init(_ url: AASAURL) {
        self.url = url
        encoded = Self.parts(of: url, decoding: .asWritten)
        decoded = Self.parts(of: url, decoding: .percent)
    }

    func parts(percentEncoded: Bool) -> Parts { percentEncoded ? encoded : decoded }

    /// Whether a URL part is written, and with what: `/x` has no query, `/x?` an empty one.
    enum Presence {
        case absent
        /// The delimiter (`?` or `#`) is written with nothing after it.
        case empty
        case present
    }

    var queryPresence: Presence { Self.presence(of: url.query) }
    var fragmentPresence: Presence { Self.presence(of: url.fragment) }

    private static func presence(of part: String?) -> Presence {
        guard let part else { return .absent }
        return part.isEmpty ? .empty : .present
    }

    /// Decision: under `percentEncoded: false` the whole query string and the fragment are
    /// percent-decoded before a string pattern sees them, like the path.
    /// Decision: items are split on the byte `&` and at the first `=` before any decoding, so
    /// an encoded `%26` or `%3D` stays inside its value; empty segments (`a=1&&b=2`) are skipped.
    /// Decoding turns only `%HH` escapes into bytes: `+` stays a literal plus, as
    /// RFC 3986 and `NSURLComponents` read it; a `%` not followed by two hex digits is kept as
    /// written, and decoded bytes that are not UTF-8 become U+FFFD rather than failing the match.
    private static func parts(of url: AASAURL, decoding: QueryString.Decoding) -> Parts {
        func decode(_ text: String) -> String {
            decoding == .asWritten ? text : PercentCoding.decode(text).text
        }
        let pathText = decode(url.path.isEmpty ? "/" : url.path)
        let rawQuery = url.query ?? ""
        let queryText = decode(rawQuery)
        let items = QueryString(rawQuery, decoding: decoding).map { item in
            QueryItem(name: item.name, value: item.value, valueScalars: Array((item.value ?? "").unicodeScalars))
        }
        let fragmentText = decode(url.fragment ?? "")
        return Parts(
            pathText: pathText, path: PathSlashRules.trimmed(pathText), queryText: queryText,
            query: Array(queryText.unicodeScalars), items: items, fragmentText: fragmentText,
            fragment: Array(fragmentText.unicodeScalars))
    }
}
