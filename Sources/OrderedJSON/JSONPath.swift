/// Where a value sits in a JSON document, written the way people read it: `sites[0].app.appIDs[1]`.
///
/// Config errors name this path so an operator can go straight to the offending value.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step down into a document.
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public private(set) var steps: [Step]

    /// The document's root.
    public static let root = JSONPath(steps: [])

    public init(steps: [Step]) { self.steps = steps }

    /// This path extended by an object key.
    public func appending(_ key: String) -> JSONPath { JSONPath(steps: steps + [.key(key)]) }

    /// This path extended by an array index.
    public func appending(_ index: Int) -> JSONPath { JSONPath(steps: steps + [.index(index)]) }

    /// The key of the last step, when the path ends in an object key.
    public var lastKey: String? {
        if case .key(let key) = steps.last { return key }
        return nil
    }

    /// `$` for the root; keys that are plain identifiers are written `.key`, others `["key"]` (a JSON string literal).
    public var description: String {
        if steps.isEmpty { return "$" }
        var text = ""
        for step in steps {
            switch step {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isPlainIdentifier(key) {
                    text += text.isEmpty ? key : ".\(key)"
                } else {
                    text += "[" + JSONValue.string(key).jsonText(.compact) + "]"
                }
            }
        }
        return text
    }

    private static func isPlainIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || $0 == "-" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }
    }
}
