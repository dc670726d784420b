/// A logged link with what no AASA pattern free of digits can tell apart made alike: every hashed
/// secret becomes one token and every run of digits a single `0`, so `/showthread.php?threadid=1`
/// and `?threadid=734512` are one form. A reload answers a form once instead of each of its links.
///
/// Why that is exact: a pattern with no digit in it matches digits only through its wildcards, and a
/// run of digits lies wholly in one gap between the pattern's literals; shortening it to one digit
/// keeps that gap non-empty, so a gap of `*` (any run) or `?*` (at least one) accepts the form exactly
/// when it accepts the link. Only a lone `?` (exactly one) or two of them in a gap count lengths:
/// `AASAMatcher.isBlindToDigitRuns` says whether a file is free of both, and a file that is not has its
/// links answered one by one. Percent escapes keep their digits (`%31` is `1`, and `%3A` is not
/// `%0A`); a hashed secret keeps its shape, so `TrafficCheck` still swaps in a value of its type.
public enum LinkForm {
    /// The token every hashed secret becomes in a form.
    public static let secretToken = SecretHasher.tokenPrefix + String(repeating: "0", count: 16)

    /// The form of a logged path (segments between `/`).
    public static func path(_ path: String) -> String {
        text(of: path, isQuery: false)
    }

    /// The form of a logged query (items between `&`, a value after `=`).
    public static func query(_ query: String) -> String {
        text(of: query, isQuery: true)
    }

    /// Writes the form of `text` (a path, or a query when `isQuery`) into `sink` without making its
    /// text: `LinkWindow` hashes the forms of thousands of links a batch and needs the text of few.
    static func append(formOf text: String, isQuery: Bool, to sink: inout some LinkFormSink) {
        let bytes = text.utf8.span
        // Most links have few digits: a text without one (or a `-`, the secret of a log without a
        // key) is its own form.
        guard needsForm(bytes) else {
            for index in bytes.indices { sink.append(bytes[index]) }
            return
        }
        var partStart = 0
        for index in 0...bytes.count {
            let isEnd = index == bytes.count
            guard isEnd || isSeparator(bytes[index], isQuery: isQuery) else { continue }
            appendForm(of: bytes.extracting(partStart..<index), to: &sink)
            if isEnd { break }
            sink.append(bytes[index])
            partStart = index + 1
        }
    }

    /// A value the log wrote in place of a secret: a `SecretHasher` token, as written or
    /// percent-encoded (`hmac%3A`), or `-` (the log had no key).
    public static func isHashedSecret(_ text: Substring) -> Bool {
        isHashedSecret(text.utf8.span)
    }

    private static func text(of text: String, isQuery: Bool) -> String {
        guard needsForm(text.utf8.span) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        append(formOf: text, isQuery: isQuery, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func needsForm(_ bytes: Span<UInt8>) -> Bool {
        for index in bytes.indices where isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "-") { return true }
        return false
    }

    private static func isSeparator(_ byte: UInt8, isQuery: Bool) -> Bool {
        byte == (isQuery ? UInt8(ascii: "&") : UInt8(ascii: "/")) || (isQuery && byte == UInt8(ascii: "="))
    }

    private static func isHashedSecret(_ bytes: Span<UInt8>) -> Bool {
        if bytes.count == 1 { return bytes[0] == UInt8(ascii: "-") }
        let prefix = SecretHasher.tokenPrefix.utf8
        let restStart: Int
        if starts(bytes, with: prefix) {
            restStart = prefix.count
        } else if bytes.count > 7, starts(bytes, with: "hmac".utf8), bytes[4] == UInt8(ascii: "%"), bytes[5] == UInt8(ascii: "3"),
            upper(bytes[6]) == UInt8(ascii: "A")
        {
            restStart = 7
        } else {
            return false
        }
        guard bytes.count - restStart == 16 else { return false }
        for index in restStart..<bytes.count where !isHexDigit(bytes[index]) { return false }
        return true
    }

    private static func starts(_ bytes: Span<UInt8>, with prefix: String.UTF8View) -> Bool {
        guard bytes.count >= prefix.count else { return false }
        var index = 0
        for byte in prefix {
            guard bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private static func appendForm(of part: Span<UInt8>, to sink: inout some LinkFormSink) {
        if isHashedSecret(part) {
            if part.count == 1 {
                sink.append(UInt8(ascii: "-"))
            } else {
                for byte in secretToken.utf8 { sink.append(byte) }
            }
            return
        }
        var index = 0
        while index < part.count {
            let byte = part[index]
            if byte == UInt8(ascii: "%"), index + 2 < part.count, isHexDigit(part[index + 1]), isHexDigit(part[index + 2]) {
                sink.append(byte)
                sink.append(part[index + 1])
                sink.append(part[index + 2])
                index += 3
            } else if isDigit(byte) {
                sink.append(UInt8(ascii: "0"))
                while index < part.count, isDigit(part[index]) { index += 1 }
            } else {
                sink.append(byte)
                index += 1
            }
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    private static func upper(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte }
}

/// Where `LinkForm` writes a form's bytes: an array (the form's text) or a hasher (its key).
protocol LinkFormSink {
    mutating func append(_ byte: UInt8)
}

extension Array: LinkFormSink where Element == UInt8 {}
