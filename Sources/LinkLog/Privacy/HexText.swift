/// Bytes as lower-case hexadecimal text: how hashed secrets and signed cookies are written.
package enum HexText {
    private static let digits: [Character] = Array("0123456789abcdef")

    package static func lowercase<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var text = ""
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
