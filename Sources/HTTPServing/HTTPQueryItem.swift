/// One `name=value` pair of a query string, percent-decoded.
///
/// A name with no `=` has value `nil` (`?flag`), which differs from an empty value (`?flag=`).
public struct HTTPQueryItem: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var value: String?

    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    public var description: String { value.map { "\(name)=\($0)" } ?? name }
}
