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
        formOfParts(path, separators: [UInt8(ascii: "/")])
    }

    /// The form of a logged query (items between `&`, a value after `=`).
    public static func query(_ query: String) -> String {
        formOfParts(query, separators: [UInt8(ascii: "&"), UInt8(ascii: "=")])
    }

    /// A value the log wrote in place of a secret: a `SecretHasher` token, as written or
    /// percent-encoded (`hmac%3A`), or `-` (the log had no key).
    public static func isHashedSecret(_ text: Substring) -> Bool {
        if text == "-" { return true }
        let utf8 = text.utf8
        let prefix = SecretHasher.tokenPrefix.utf8
        let rest: Substring.UTF8View.SubSequence
        if utf8.starts(with: prefix) {
            rest = utf8.dropFirst(prefix.count)
        } else if utf8.count > 7, utf8.prefix(4).elementsEqual("hmac".utf8), utf8.dropFirst(4).prefix(3).map(Self.upper).elementsEqual("%3A".utf8) {
            rest = utf8.dropFirst(7)
        } else {
            return false
        }
        return rest.count == 16 && rest.allSatisfy { Self.isHexDigit($0) }
    }

    private static func formOfParts(_ text: String, separators: [UInt8]) -> String {
        // Most links have few digits: build the form only once one is met.
        guard text.utf8.contains(where: { isDigit($0) || $0 == UInt8(ascii: "-") }) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        let utf8 = text.utf8
        var partStart = utf8.startIndex
        var index = utf8.startIndex
        while index <= utf8.endIndex {
            if index == utf8.endIndex || separators.contains(utf8[index]) {
                appendForm(of: text[partStart..<index], to: &output)
                if index == utf8.endIndex { break }
                output.append(utf8[index])
                partStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func appendForm(of part: Substring, to output: inout [UInt8]) {
        if isHashedSecret(part) {
            output += (part == "-" ? "-" : secretToken).utf8
            return
        }
        let bytes = Array(part.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                output += bytes[index...(index + 2)]
                index += 3
            } else if isDigit(byte) {
                output.append(UInt8(ascii: "0"))
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            } else {
                output.append(byte)
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
