import PercentCoding

/// Percent-decoding for rules with `"percentEncoded": false`.
///
/// Decisions (§6.2, §3.7): only `%HH` escapes are decoded; `+` stays a literal plus (RFC 3986 and
/// `NSURLComponents` both treat it as data, not as a space); a `%` not followed by two hex digits is
/// kept as written; decoded bytes that are not valid UTF-8 become U+FFFD rather than failing.
enum PercentEncodedText {
    static func decode<S: StringProtocol>(_ text: S) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return String(decoding: PercentCoding.decode(text.utf8).bytes, as: UTF8.self)
    }
}
