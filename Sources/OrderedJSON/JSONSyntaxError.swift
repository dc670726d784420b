/// Why a document is not valid JSON, and where: byte offset, 1-based line and column, and the JSON
/// path of the value being read when the problem was found.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public let line: Int
    public let column: Int
    public let path: JSONPath

    public init(message: String, offset: Int, line: Int, column: Int, path: JSONPath) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
        self.path = path
    }

    public var description: String {
        "line \(line), column \(column) (at \(path)): \(message)"
    }
}
