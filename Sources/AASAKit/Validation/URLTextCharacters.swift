/// The characters a URL never holds as written, for patterns compared with the percent-encoded URL.
///
/// A browser or app sends a space as `%20` and `"` as `%22`; the URL iOS compares under the default
/// `"percentEncoded": true` is that encoded text, so a pattern that writes such a character raw
/// can never match there. The set is RFC 3986's: controls, space, `"`, `<`, `>`, `\`, `^`, `` ` ``,
/// `{`, `|`, `}`, a `%` that starts no escape, and `#` outside the fragment (it would start one).
/// Non-ASCII text is AASA023's concern and is left alone here.
enum URLTextCharacters {
    /// What is wrong with the literal text of `source` and the pattern with those characters
    /// percent-encoded, or `nil` when it holds only characters a URL can hold.
    /// - Parameter variables: whether `$(name)` references are read (they are skipped, not checked).
    static func problem(in source: String, allowsHash: Bool, variables: Bool) -> (found: [String], encoded: String)? {
        let scalars = Array(source.unicodeScalars)
        var found: [String] = []
        var encoded = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if variables, scalar == "$", index + 1 < scalars.count, scalars[index + 1] == "(",
                let close = scalars[(index + 2)...].firstIndex(of: ")")
            {
                encoded.append(contentsOf: scalars[index...close])
                index = close + 1
                continue
            }
            if let name = forbiddenName(scalar, at: index, in: scalars, allowsHash: allowsHash) {
                if !found.contains(name) { found.append(name) }
                for byte in String(scalar).utf8 { encoded.append(contentsOf: percentEscape(byte).unicodeScalars) }
            } else {
                encoded.append(scalar)
            }
            index += 1
        }
        return found.isEmpty ? nil : (found, String(encoded))
    }

    private static func forbiddenName(_ scalar: Unicode.Scalar, at index: Int, in scalars: [Unicode.Scalar], allowsHash: Bool) -> String? {
        switch scalar.value {
        case 0..<0x20, 0x7F: return "the control character U+\(String(scalar.value, radix: 16, uppercase: true))"
        case 0x20: return "a raw space"
        default: break
        }
        switch scalar {
        case "\"", "<", ">", "\\", "^", "`", "{", "|", "}": return "\"\(scalar)\""
        case "#" where !allowsHash: return "\"#\" (it would start the fragment)"
        case "%" where !startsEscape(at: index, in: scalars): return "a \"%\" that starts no escape such as %20"
        default: return nil
        }
    }

    /// Whether the `%` at `index` can be the start of an escape: two hex digits follow, or wildcards
    /// that may stand for them.
    private static func startsEscape(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        func canBeHexDigit(_ offset: Int) -> Bool {
            guard index + offset < scalars.count else { return false }
            let scalar = scalars[index + offset]
            if scalar == "?" || scalar == "*" || scalar == "$" { return true }
            return scalar.properties.isASCIIHexDigit
        }
        if index + 1 < scalars.count, scalars[index + 1] == "*" { return true }
        return canBeHexDigit(1) && canBeHexDigit(2)
    }

    private static func percentEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
