/// Percent-encoding primitives (RFC 3986 §2.1) shared by the request parser, the link rules, the
/// AASA matcher and the pages, which each decide on top of them how strict to be.
public enum PercentCoding {
    /// Decodes `%HH` escapes. A `%` not followed by two hex digits is kept as written and reported;
    /// with `plusAsSpace`, `+` becomes a space (form encoding), otherwise it stays a plus.
    public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, plusAsSpace: Bool = false) -> (bytes: [UInt8], brokenEscape: Bool) {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var broken = false
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                if first != bytes.endIndex, let high = hexValue(bytes[first]) {
                    let second = bytes.index(after: first)
                    if second != bytes.endIndex, let low = hexValue(bytes[second]) {
                        output.append(high << 4 | low)
                        index = bytes.index(after: second)
                        continue
                    }
                }
                broken = true
                output.append(byte)
            } else if byte == UInt8(ascii: "+") && plusAsSpace {
                output.append(UInt8(ascii: " "))
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        return (output, broken)
    }

    /// Encodes every byte of `text` that `keep` rejects as `%HH` (upper-case hex).
    public static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        var result = String.UnicodeScalarView()
        for byte in text.utf8 {
            if keep(byte) {
                result.append(Unicode.Scalar(byte))
            } else {
                appendEscape(of: byte, to: &result)
            }
        }
        return String(result)
    }

    /// Appends `%HH` for `byte`.
    public static func appendEscape(of byte: UInt8, to scalars: inout String.UnicodeScalarView) {
        scalars.append("%")
        scalars.append(Unicode.Scalar(hexDigits[Int(byte >> 4)]))
        scalars.append(Unicode.Scalar(hexDigits[Int(byte & 0x0F)]))
    }

    /// RFC 3986 unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// The value of one hex digit, `nil` for anything else.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
