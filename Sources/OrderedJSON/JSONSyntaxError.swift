/// Why a document is not valid JSON, and where: byte offset, 1-based line and column, and the JSON
/// path of the value being read when the problem was found.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is, for callers that word one differently.
    public enum Kind: Sendable, Hashable {
        /// The text breaks JSON's grammar or encoding.
        case syntax
        /// Valid so far, but nested deeper than the parser's `maximumDepth`.
        case nestingTooDeep
    }

    public let message: String
    public let offset: Int
    public let line: Int
    public let column: Int
    public let path: JSONPath
    /// Grammar or nesting; a reader may say "nested too deeply" instead of "not valid JSON".
    public let kind: Kind

    public init(message: String, offset: Int, line: Int, column: Int, path: JSONPath, kind: Kind = .syntax) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
        self.path = path
        self.kind = kind
    }

    public var description: String {
        "line \(line), column \(column) (at \(path)): \(message)"
    }
}
