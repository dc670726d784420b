/// A value bound to a parameter or read from a result column. The log stores integers and text
/// only, so these are the only kinds there are.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)

    /// The value as an integer: text that is a number is converted (PostgreSQL sends numbers as text),
    /// NULL and anything else are `nil`.
    public var integer: Int64? {
        switch self {
        case .null: nil
        case .integer(let value): value
        case .text(let text): Int64(text)
        }
    }

    /// The value as text: integers are written in decimal, NULL is `nil`.
    public var text: String? {
        switch self {
        case .null: nil
        case .integer(let value): String(value)
        case .text(let text): text
        }
    }

    /// `.text(text)`, or `.null` for `nil`.
    public init(_ text: String?) {
        self = text.map { .text($0) } ?? .null
    }
}
