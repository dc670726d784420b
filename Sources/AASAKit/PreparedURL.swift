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
        encoded = Self.parts(of: url, decode: { String($0) })
        decoded = Self.parts(of: url, decode: PercentEncodedText.decode)
    }

    func parts(percentEncoded: Bool) -> Parts { percentEncoded ? encoded : decoded }

    var hasQuery: Bool { !(url.query ?? "").isEmpty }
    var hasFragment: Bool { !(url.fragment ?? "").isEmpty }

    /// Decision (§6.3): under `percentEncoded: false` the whole query string and the fragment are
    /// percent-decoded before a string pattern sees them, like the path.
    /// Decision (§6.2): items are split on `&` and at the first `=` before any decoding, so an
    /// encoded `%26` or `%3D` stays inside its value; empty segments (`a=1&&b=2`) are skipped.
    private static func parts(of url: AASAURL, decode: (Substring) -> String) -> Parts {
        let pathText = decode(Substring(url.path.isEmpty ? "/" : url.path))
        let rawQuery = url.query ?? ""
        let queryText = decode(Substring(rawQuery))
        var items: [QueryItem] = []
        for segment in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = segment.firstIndex(of: "=") {
                let value = decode(segment[segment.index(after: equals)...])
                items.append(QueryItem(name: decode(segment[..<equals]), value: value, valueScalars: Array(value.unicodeScalars)))
            } else {
                items.append(QueryItem(name: decode(segment), value: nil, valueScalars: []))
            }
        }
        let fragmentText = decode(Substring(url.fragment ?? ""))
        return Parts(pathText: pathText, path: PathSlashRules.trimmed(pathText), queryText: queryText,
                     query: Array(queryText.unicodeScalars), items: items, fragmentText: fragmentText,
                     fragment: Array(fragmentText.unicodeScalars))
    }
}
