/// Percent-encoding (RFC 3986 §2.1) for the whole project: the request parser, the link rules, the
/// AASA matcher and the pages all decode and encode here and differ only in the options they pass.
///
/// Byte-level because it runs for every request; text with nothing to decode or encode (the usual
/// case) comes back as it is, without copying bytes around.
public enum PercentCoding {
    /// Which bytes `encode` keeps as they are; every other byte becomes `%HH`.
    public enum EncodeSet: Sendable {
        /// RFC 3986 unreserved characters only (letters, digits, `-`, `.`, `_`, `~`), for a value
        /// placed into a path segment or a query item: `/`, `?`, `&`, `=`, `#`, `%` and spaces are
        /// all encoded, so the value cannot change the URL's structure.
        case component
        /// For text that already is a URL's path and query, echoed into an `href`: unreserved
        /// characters, the sub-delimiters a path or query holds as data, `:`, `@`, `/`, `?`, and a
        /// `%` that starts a valid escape. Quotes (`'` too: it could close a single-quoted attribute
        /// in an operator's template), angle brackets, spaces, backslashes, control and non-ASCII
        /// bytes are encoded, so the text cannot leave its attribute or turn into another kind of URL.
        case pathAndQuery
    }

    /// Decodes `%HH` escapes, leniently as browsers do: a `%` not followed by two hex digits stays as
    /// written and decoded bytes that are not UTF-8 become U+FFFD, and either is reported. With
    /// `plusAsSpace` (HTML form encoding) `+` becomes a space; otherwise it is data, as RFC 3986 and
    /// `URLComponents` read it.
    public static func decode(_ text: Substring, plusAsSpace: Bool = false) -> PercentDecodedText {
        let utf8 = text.utf8
        // Looked for in the contiguous bytes (a walk of `Substring.UTF8View` goes through its
        // index type, for each value of a new link).
        func needsDecoding(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "%") || (byte == UInt8(ascii: "+") && plusAsSpace) }
        let needsWork = utf8.withContiguousStorageIfAvailable { $0.contains(where: needsDecoding) } ?? utf8.contains(where: needsDecoding)
        // A Swift string is valid UTF-8 already, so without escapes or pluses there is nothing to do.
        guard needsWork else { return PercentDecodedText(text: String(text), isMalformed: false) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var brokenEscape = false
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            index = utf8.index(after: index)
            if byte == UInt8(ascii: "%") {
                if index != utf8.endIndex, let high = hexValue(utf8[index]) {
                    let second = utf8.index(after: index)
                    if second != utf8.endIndex, let low = hexValue(utf8[second]) {
                        bytes.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
                brokenEscape = true
                bytes.append(byte)
            } else if byte == UInt8(ascii: "+") && plusAsSpace {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        if let valid = String(validating: bytes, as: UTF8.self) {
            return PercentDecodedText(text: valid, isMalformed: brokenEscape)
        }
        return PercentDecodedText(text: String(decoding: bytes, as: UTF8.self), isMalformed: true)
    }

    /// Decodes a whole string; see `decode(_:plusAsSpace:)` on `Substring`.
    public static func decode(_ text: String, plusAsSpace: Bool = false) -> PercentDecodedText {
        decode(Substring(text), plusAsSpace: plusAsSpace)
    }

    /// Encodes every byte of `text` that `set` does not keep as `%HH` (upper-case hex).
    public static func encode(_ text: String, _ set: EncodeSet = .component) -> String {
        var text = text
        // Over the contiguous UTF-8 bytes with integer offsets: a page of a new link encodes each of
        // its values, and walking `String.UTF8View` by its indices cost several times as much.
        return text.withUTF8 { bytes in
            let escapes = escapeCount(bytes, set)
            if escapes == 0 { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + 2 * escapes) { output in
                writeEncoded(bytes, set, to: output)
            }
        } ?? text
    }

    /// How many bytes of `bytes` `set` does not keep (each becomes three).
    static func escapeCount(_ bytes: UnsafeBufferPointer<UInt8>, _ set: EncodeSet) -> Int {
        var escapes = 0
        for offset in bytes.indices where !keeps(set, bytes, at: offset) { escapes += 1 }
        return escapes
    }

    /// Writes `bytes` encoded into `output` (room for `escapeCount` more bytes times two); returns
    /// how many bytes it wrote.
    @discardableResult
    static func writeEncoded(_ bytes: UnsafeBufferPointer<UInt8>, _ set: EncodeSet, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var written = 0
        for offset in bytes.indices {
            let byte = bytes[offset]
            if keeps(set, bytes, at: offset) {
                output[written] = byte
                written += 1
            } else {
                output[written] = UInt8(ascii: "%")
                output[written + 1] = hexDigit(byte >> 4)
                output[written + 2] = hexDigit(byte & 0x0F)
                written += 3
            }
        }
        return written
    }

    /// RFC 3986 unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    private static func keeps(_ set: EncodeSet, _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        let byte = bytes[offset]
        if isUnreserved(byte) { return true }
        guard case .pathAndQuery = set else { return false }
        switch byte {
        case UInt8(ascii: "%"):
            return offset + 2 < bytes.count && hexValue(bytes[offset + 1]) != nil && hexValue(bytes[offset + 2]) != nil
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
            UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"),
            UInt8(ascii: "/"), UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    /// The upper-case hex digit of a value below 16.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// The value of one hex digit, `nil` for anything else.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The result of `PercentCoding.decode`: the text, and whether the input was broken.
public struct PercentDecodedText: Sendable, Equatable {
    /// The decoded text; a broken escape stays as written and bytes that are not UTF-8 are U+FFFD.
    public let text: String
    /// True when a `%` was not followed by two hex digits or the decoded bytes were not UTF-8.
    public let isMalformed: Bool

    public init(text: String, isMalformed: Bool) {
        self.text = text
        self.isMalformed = isMalformed
    }

    /// The text, or `nil` when the input was malformed: for callers that refuse broken values.
    public var validText: String? { isMalformed ? nil : text }
}
