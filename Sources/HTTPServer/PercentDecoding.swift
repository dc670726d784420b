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
}
