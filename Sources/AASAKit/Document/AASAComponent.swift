import OrderedJSON

/// One pattern-matching dictionary: an entry of `components`, or a `defaults` object (Apple calls
/// Defaults "a subclass of components", so both share this shape). `nil` means "not written here".
public struct AASAComponent: Sendable, Hashable {
    /// Position in the JSON `components` array (skipped broken neighbours keep their numbers).
    public let index: Int
    /// Where the object sits in the document.
    public let jsonPath: JSONPath
    /// `/`: the path pattern.
    public var path: String?
    /// `?`: the query pattern.
    public var query: AASAQueryPattern?
    /// `#`: the fragment pattern.
    public var fragment: String?
    /// `exclude`: a match blocks the link instead of opening the app.
    public var exclude: Bool?
    /// `comment`: ignored by iOS, shown in explanations.
    public var comment: String?
    /// `caseSensitive` (default true).
    public var caseSensitive: Bool?
    /// `percentEncoded` (default true).
    public var percentEncoded: Bool?

    public init(
        index: Int = 0, jsonPath: JSONPath = .root, path: String? = nil, query: AASAQueryPattern? = nil,
        fragment: String? = nil, exclude: Bool? = nil, comment: String? = nil,
        caseSensitive: Bool? = nil, percentEncoded: Bool? = nil
    ) {
        self.index = index
        self.jsonPath = jsonPath
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.comment = comment
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    /// This component with every unset property taken from `defaults` (the more specific level wins).
    ///
    /// Decision: `/`, `?`, `#` and `exclude` inherit too, as recorded `swcutil` does; only
    /// `comment` stays per component.
    public func filling(from defaults: AASAComponent?) -> AASAComponent {
        guard let defaults else { return self }
        var merged = self
        merged.path = path ?? defaults.path
        merged.query = query ?? defaults.query
        merged.fragment = fragment ?? defaults.fragment
        merged.exclude = exclude ?? defaults.exclude
        merged.caseSensitive = caseSensitive ?? defaults.caseSensitive
        merged.percentEncoded = percentEncoded ?? defaults.percentEncoded
        return merged
    }
}

/// The `?` key of a component: a pattern for the whole query, or per-item patterns.
public enum AASAQueryPattern: Sendable, Hashable {
    /// Matched against the raw query string after `?` (absent reads as empty).
    case string(String)
    /// Each named item must match; unnamed items and order are ignored.
    case items([AASAQueryItemPattern])
    /// A dictionary with a non-string predicate (named here). Recorded `swcutil` then ignores the
    /// whole dictionary, so it constrains nothing and any query matches. Decision: it does not fall
    /// back to a `?` inherited from `defaults`, because the component did write a `?` key.
    case ignoredDictionary(offendingName: String)
}

/// One `name: pattern` pair of a query dictionary.
public struct AASAQueryItemPattern: Sendable, Hashable {
    /// The query item name, compared exactly (or folded under `caseSensitive: false`).
    public let name: String
    /// The pattern every occurrence of the item's value must match.
    public let pattern: String

    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}
