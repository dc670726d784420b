/// The result of `PercentCoding.decode`: the text, and whether the input was broken.
public struct PercentDecodedText: Sendable, Equatable {
    /// The decoded text; a broken escape stays as written and bytes that are not UTF-8 are U+FFFD.
    public let text: String
    /// True when a `%` was not followed by two hex digits or the decoded bytes were not UTF-8.
    public let isMalformed: Bool

    public init(text: String, isMalformed: Bool) {
        self.text = text
        self.isMalformed = isMalformed
    }

    /// The text, or `nil` when the input was malformed: for callers that refuse broken values.
    public var validText: String? { isMalformed ? nil : text }
}
