/// Text that `TimeBound.parse` could not read as a time; its description lists the forms it accepts.
public struct TimeBoundError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    public let text: String

    /// An error for `text`.
    public init(text: String) {
        self.text = text
    }

    public var description: String {
        "cannot read \"\(text)\" as a time: use \(TimeBound.acceptedForms.joined(separator: ", "))"
    }
}
