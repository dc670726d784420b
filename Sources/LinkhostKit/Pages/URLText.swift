import PercentCoding

/// Makes raw request text safe to place inside a URL that goes into an `href`.
enum URLText {
    /// Keeps bytes that may appear in a URL's path or query (RFC 3986 unreserved, sub-delims, `:`,
    /// `@`, `/`, `?`, `%`) and percent-encodes everything else — quotes, angle brackets, spaces,
    /// backslashes, control and non-ASCII bytes — so the result cannot leave its attribute or turn
    /// into another kind of URL. A `%` not followed by two hex digits is encoded too.
    static func sanitized(_ raw: String) -> String {
        let bytes = Array(raw.utf8)
        var output = String.UnicodeScalarView()
        for (index, byte) in bytes.enumerated() {
            let isEscape = byte == UInt8(ascii: "%") && index + 2 < bytes.count
                && PercentCoding.hexValue(bytes[index + 1]) != nil && PercentCoding.hexValue(bytes[index + 2]) != nil
            if isAllowed(byte) || isEscape {
                output.append(Unicode.Scalar(byte))
            } else {
                PercentCoding.appendEscape(of: byte, to: &output)
            }
        }
        return String(output)
    }

    /// Unreserved characters and the sub-delimiters a path or query may hold as data; not `'`,
    /// which could close a single-quoted attribute in an operator's template.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        PercentCoding.isUnreserved(byte) || "!$&()*+,;=:@/?".utf8.contains(byte)
    }
}
