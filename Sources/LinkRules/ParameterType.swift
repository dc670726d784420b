/// The kinds of values a link parameter can hold; each knows what it accepts.
///
/// Values are checked after percent-decoding. The checks are deliberately strict: a value that is
/// not exactly what the app expects makes the link a broken link (400), not a server error.
public enum ParameterType: String, Sendable, CaseIterable {
    /// A decimal id: 1 to 18 digits (forum, thread, post and user ids).
    case id
    /// A 1-based page number (1 to 99999), or `last` or `unread`.
    case page
    /// An invite code: 4 to 32 ASCII letters, digits, `-` or `_` (Rowhni's are the first eight
    /// characters of a UUID, upper-cased; its tests use `TEST123`).
    case inviteCode
    /// A URL-friendly name: 1 to 100 letters (any script), digits, `-`, `_`, `.` or `~`.
    case slug
    /// Free text: 1 to 200 characters, no control characters.
    case text
    /// `0` or `1`.
    case flag

    /// What a value must be, in the words every place that enforces it uses: the CLI's and the
    /// config checker's errors, and the English broken-link page (`type_…` in Public/locales/en.json,
    /// which a test holds to this text; de.json says the same in German).
    public var requirement: String {
        switch self {
        case .id: "a number (1 to 18 digits)"
        case .page: "a page number (1 to 99999), “last” or “unread”"
        case .inviteCode: "4 to 32 letters (A–Z, a–z), digits, “-” or “_”"
        case .slug: "a name of letters, digits, “-”, “_”, “.” or “~” (1 to 100)"
        case .text: "a short text (1 to 200 characters, no control characters)"
        case .flag: "0 or 1"
        }
    }

    /// Whether `value` (percent-decoded) is acceptable.
    public func accepts(_ value: String) -> Bool {
        switch self {
        case .id:
            return (1...18).contains(value.utf8.count) && Self.allBytes(of: value, satisfy: Self.isDigit)
        case .page:
            if value == "last" || value == "unread" { return true }
            guard (1...5).contains(value.utf8.count), Self.allBytes(of: value, satisfy: Self.isDigit), let number = Int(value) else { return false }
            return number >= 1
        case .inviteCode:
            return (4...32).contains(value.utf8.count)
                && Self.allBytes(of: value) { Self.isASCIILetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        case .slug:
            return (1...100).contains(value.count)
                && value.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.~".unicodeScalars.contains($0) }
        case .text:
            return (1...200).contains(value.count) && !value.unicodeScalars.contains { $0.properties.generalCategory == .control }
        case .flag:
            return value == "0" || value == "1"
        }
    }

    /// Whether every UTF-8 byte of `value` satisfies `test`, read in place: every new link's values
    /// are checked, and walking `String.UTF8View` goes through its index type for every byte.
    private static func allBytes(of value: String, satisfy test: (UInt8) -> Bool) -> Bool {
        value.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? value.utf8.allSatisfy(test)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
