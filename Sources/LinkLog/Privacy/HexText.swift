/// Bytes as lower-case hexadecimal text: how hashed secrets and signed cookies are written.
package enum HexText {
    package static func lowercase<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        lowercase(Array(bytes), prefix: "")
    }

    /// `prefix` followed by `bytes` in hex, written in one piece: a logged invitation's secret is
    /// hashed into such a text (`hmac:` and 16 digits), and appending `Character`s one by one cost
    /// more than hashing it.
    package static func lowercase(_ bytes: [UInt8], prefix: StaticString) -> String {
        String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + 2 * bytes.count) { output in
            var written = 0
            for offset in 0..<prefix.utf8CodeUnitCount {
                output[written] = prefix.utf8Start[offset]
                written += 1
            }
            for byte in bytes {
                output[written] = digit(byte >> 4)
                output[written + 1] = digit(byte & 0x0F)
                written += 2
            }
            return written
        }
    }

    private static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
