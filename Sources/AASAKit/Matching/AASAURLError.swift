/// Why a string could not be read as a URL to match; the message says what to type instead.
public struct AASAURLError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
