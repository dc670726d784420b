import PercentCoding

/// Percent-decoding for request paths and query strings.
///
/// Lenient the way browsers are: a `%` not followed by two hex digits stays as written, and bytes
/// that are not UTF-8 become U+FFFD. Either case is reported so a caller can call the link broken.
enum PercentDecoding {
    struct Decoded {
        var text: String
        var malformed: Bool
    }

    /// Decodes a piece of the target; text with nothing to decode (the usual case) is returned as
    /// it is, without copying bytes around.
    static func decode(_ text: Substring, plusAsSpace: Bool) -> Decoded {
        let needsWork = text.utf8.contains { $0 == UInt8(ascii: "%") || $0 >= 0x80 || ($0 == UInt8(ascii: "+") && plusAsSpace) }
        if !needsWork { return Decoded(text: String(text), malformed: false) }
        return decode(text.utf8, plusAsSpace: plusAsSpace)
    }

    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, plusAsSpace: Bool) -> Decoded {
        let decoded = PercentCoding.decode(bytes, plusAsSpace: plusAsSpace)
        if let valid = String(validating: decoded.bytes, as: UTF8.self) {
            return Decoded(text: valid, malformed: decoded.brokenEscape)
        }
        return Decoded(text: String(decoding: decoded.bytes, as: UTF8.self), malformed: true)
    }

    /// Splits a raw query on `&`, drops empty pieces, and decodes each name and value.
    static func queryItems(_ rawQuery: String) -> (items: [HTTPQueryItem], malformed: Bool) {
        var items: [HTTPQueryItem] = []
        var malformed = false
        // Split on the byte, not the Character: "&" followed by a combining mark is still a separator.
        for piece in rawQuery.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map(Substring.init) {
            if let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = decode(piece[piece.startIndex..<equals], plusAsSpace: true)
                let value = decode(piece[piece.utf8.index(after: equals)...], plusAsSpace: true)
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
}
