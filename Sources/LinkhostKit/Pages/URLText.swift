/// Makes raw request text safe to place inside a URL that goes into an `href`.
enum URLText {
    /// Keeps bytes that may appear in a URL's path or query (RFC 3986 unreserved, sub-delims, `:`,
    /// `@`, `/`, `?`, `%`) and percent-encodes everything else — quotes, angle brackets, spaces,
    /// backslashes, control and non-ASCII bytes — so the result cannot leave its attribute or turn
    /// into another kind of URL. A `%` not followed by two hex digits is encoded too.
    static func sanitized(_ raw: String) -> String {
        let bytes = Array(raw.utf8)
        var output = ""
        output.reserveCapacity(bytes.count)
        let hex = Array("0123456789ABCDEF".utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2])
            if isAllowed(byte) || isEscape {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output.unicodeScalars.append("%")
                output.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                output.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
            index += 1
        }
        return output
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&()*+,;=:@/?".utf8.contains(byte)
        }
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
