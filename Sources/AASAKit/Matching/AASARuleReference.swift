import OrderedJSON

/// Points at one rule of a file: `details[detailsIndex].components[ruleIndex]` (or `.paths[…]`).
public struct AASARuleReference: Sendable, Hashable, CustomStringConvertible {
    public let detailsIndex: Int
    public let ruleIndex: Int
    public let kind: AASARuleKind
    /// The rule's JSON path in the document.
    public let jsonPath: JSONPath

    public init(detailsIndex: Int, ruleIndex: Int, kind: AASARuleKind, jsonPath: JSONPath) {
        self.detailsIndex = detailsIndex
        self.ruleIndex = ruleIndex
        self.kind = kind
        self.jsonPath = jsonPath
    }

    public var description: String { jsonPath.description }
}

/// Which list a rule index points into.
public enum AASARuleKind: String, Sendable, Hashable {
    /// `details[i].components[j]`
    case component
    /// `details[i].paths[j]` (legacy)
    case legacyPath
}
