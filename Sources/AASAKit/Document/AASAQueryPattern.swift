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
