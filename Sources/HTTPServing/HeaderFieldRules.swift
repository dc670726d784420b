/// What may appear in a response header field, so a value taken from a request can never split a
/// response or smuggle a second header.
enum HeaderFieldRules {
    /// A token name (RFC 9110 `tchar`s) and a value with no CR, LF or NUL.
    static func isValid(name: String, value: String) -> Bool {
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenCharacter) else { return false }
        return !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
