import OrderedJSON

/// One entry of `applinks.substitutionVariables`: a name and the alternatives `$(name)` stands for.
public struct AASASubstitutionVariable: Sendable, Hashable {
    public let name: String
    /// The alternatives in document order; each may contain `*` and `?`, never another variable.
    public let values: [String]
    /// Where the definition sits in the document.
    public let jsonPath: JSONPath

    public init(name: String, values: [String], jsonPath: JSONPath = .root) {
        self.name = name
        self.values = values
        self.jsonPath = jsonPath
    }

    /// Whether the name can be referenced: Apple allows any character except `$`, `(` and `)`.
    public var hasValidName: Bool {
        !name.isEmpty && !name.unicodeScalars.contains { $0 == "$" || $0 == "(" || $0 == ")" }
    }
}
