import OrderedJSON

/// One string of a legacy `paths` array, such as `"/videos/*"` or `"NOT /videos/wwdc/2010/*"`.
public struct AASALegacyPath: Sendable, Hashable {
    /// Position in the JSON `paths` array.
    public let index: Int
    public let jsonPath: JSONPath
    /// The string as written, `NOT ` included.
    public let text: String

    public init(index: Int, jsonPath: JSONPath = .root, text: String) {
        self.index = index
        self.jsonPath = jsonPath
        self.text = text
    }

    /// Whether the entry starts with `NOT ` (upper case, one space): a match then blocks the link.
    public var isExclusion: Bool { text.hasPrefix("NOT ") }

    /// The path pattern without the `NOT ` prefix.
    public var pattern: String { isExclusion ? String(text.dropFirst(4)) : text }
}
