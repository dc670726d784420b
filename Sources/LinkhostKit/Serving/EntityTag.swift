/// Strong entity tags for fixed content, and the `If-None-Match` test that turns a repeat fetch into
/// a 304 with no body.
public enum EntityTag {
    /// A quoted strong tag derived from the bytes (64-bit FNV-1a plus the length): cheap, stable
    /// across restarts, and different whenever the content changes in practice. It is a cache
    /// validator, not a security check.
    public static func strong(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return "\"\(String(repeating: "0", count: 16 - hex.count))\(hex)-\(String(bytes.count, radix: 16))\""
    }

    /// Whether an `If-None-Match` value matches `tag` (weak comparison, as RFC 9110 requires for this
    /// header): `*`, or any listed tag whose opaque part equals ours, with or without `W/`.
    public static func ifNoneMatch(_ header: String, matches tag: String) -> Bool {
        let ours = opaque(Substring(tag))
        for candidate in header.split(separator: ",") {
            let trimmed = candidate.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            let value = Substring(String(trimmed))
            if value == "*" { return true }
            if opaque(value) == ours { return true }
        }
        return false
    }

    private static func opaque(_ tag: Substring) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}
