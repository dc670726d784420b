/// Percent-decoding for rules with `"percentEncoded": false`.
///
/// Decisions (§6.2, §3.7): only `%HH` escapes are decoded; `+` stays a literal plus (RFC 3986 and
/// `NSURLComponents` both treat it as data, not as a space); a `%` not followed by two hex digits is
/// kept as written; decoded bytes that are not valid UTF-8 become U+FFFD rather than failing.
enum PercentEncodedText {
    static func decode<S: StringProtocol>(_ text: S) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return String(text) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
