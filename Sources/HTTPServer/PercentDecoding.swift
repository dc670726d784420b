/// Percent-decoding for request paths and query strings.
///
/// Lenient the way browsers are: a `%` not followed by two hex digits stays as written, and bytes
/// that are not UTF-8 become U+FFFD. Either case is reported so a caller can call the link broken.
enum PercentDecoding {
    struct Decoded {
        var text: String
        var malformed: Bool
    }

    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, plusAsSpace: Bool) -> Decoded {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var malformed = false
        var index = bytes.startIndex
        var needsDecoding = false
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                needsDecoding = true
                let first = bytes.index(after: index)
                if first != bytes.endIndex, let high = hexValue(bytes[first]) {
                    let second = bytes.index(after: first)
                    if second != bytes.endIndex, let low = hexValue(bytes[second]) {
                        output.append(high << 4 | low)
                        index = bytes.index(after: second)
                        continue
                    }
                }
                malformed = true
                output.append(byte)
            } else if byte == UInt8(ascii: "+") && plusAsSpace {
                output.append(UInt8(ascii: " "))
            } else {
                if byte >= 0x80 { needsDecoding = true }
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        if needsDecoding, let valid = String(validating: output, as: UTF8.self) {
            return Decoded(text: valid, malformed: malformed)
        }
        if needsDecoding {
            return Decoded(text: String(decoding: output, as: UTF8.self), malformed: true)
        }
        return Decoded(text: String(decoding: output, as: UTF8.self), malformed: malformed)
    }

    /// Splits a raw query on `&`, drops empty pieces, and decodes each name and value.
    static func queryItems(_ rawQuery: String) -> (items: [HTTPQueryItem], malformed: Bool) {
        var items: [HTTPQueryItem] = []
        var malformed = false
        for piece in rawQuery.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
                let name = decode(piece[piece.startIndex..<equals], plusAsSpace: true)
                let value = decode(piece[piece.index(after: equals)...], plusAsSpace: true)
                malformed = malformed || name.malformed || value.malformed
                items.append(HTTPQueryItem(name: name.text, value: value.text))
            } else {
                let name = decode(piece, plusAsSpace: true)
                malformed = malformed || name.malformed
                items.append(HTTPQueryItem(name: name.text, value: nil))
            }
        }
        return (items, malformed)
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
