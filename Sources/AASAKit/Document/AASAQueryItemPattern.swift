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
