import PercentCoding

/// Percent-encoding for values placed into URLs (app URLs, universal links).
public enum PercentEncoding {
    /// Encodes everything except RFC 3986 unreserved characters, so a value can sit in a path
    /// segment or a query item without changing the URL's structure (`/`, `?`, `&`, `=`, `#`, `:`
    /// and spaces are all encoded).
    public static func encode(_ value: String) -> String {
        PercentCoding.encode(value, keeping: PercentCoding.isUnreserved)
    }

    /// Decodes `%XX` escapes; `nil` when an escape is broken or the bytes are not UTF-8.
    public static func decode(_ value: String) -> String? {
        let decoded = PercentCoding.decode(value.utf8)
        guard !decoded.brokenEscape else { return nil }
        return String(validating: decoded.bytes, as: UTF8.self)
    }
}
