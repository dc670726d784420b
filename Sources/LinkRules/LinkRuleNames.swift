/// What counts as a valid rule or parameter name: they appear in logs, the CLI and templates.
public enum LinkRuleNames {
    /// Letters, digits, `_` and `-`, starting with a letter; at most 64 characters.
    public static func isValidRuleName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first), name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// Letters, digits and `_`, starting with a letter or `_`; at most 64 characters.
    public static func isValidParameterName(_ name: String) -> Bool {
        guard let first = name.utf8.first, isLetter(first) || first == UInt8(ascii: "_"), name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
