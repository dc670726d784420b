import Glibc
import PercentCoding

/// A request as the server received it, ready for a responder.
///
/// The raw request target is kept next to its decoded path. The query is kept as sent and split only
/// when asked (`queryItems`): most requests (the AASA file, static files) never need it, and a
/// responder that does splits it once and keeps the items.
public struct HTTPRequest: Sendable {
    /// The method as sent (`GET`, `HEAD`, ...). HEAD is answered like GET; the server drops the body.
    public var method: String
    /// The request target exactly as it appeared on the request line.
    public var target: String
    /// The target's path, percent-decoded.
    public var path: String
    /// The target's path as sent, before decoding.
    public var rawPath: String
    /// The text after the first `?`, as sent; `nil` when the target has no `?`.
    public var rawQuery: String?
    /// True when the path had a broken `%` escape or decoded to bytes that are not UTF-8.
    private let pathIsMalformed: Bool
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    public var headers: HTTPHeaders
    /// The peer's IP address in text form, `nil` when unknown.
    public var clientAddress: String?
    /// The `Host` header without a port or a trailing dot, lowercased; `nil` when absent or empty.
    /// Worked out once, when the request is made: routing and logging both need it.
    public let hostName: String?
    /// The request body (empty for GET and HEAD); bounded by `HTTPServerConfiguration.maximumBodySize`.
    public var body: [UInt8]

    /// Builds a request from a raw target; the path and query are decoded here.
    public init(
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: HTTPHeaders = HTTPHeaders(),
        clientAddress: String? = nil,
        body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.clientAddress = clientAddress
        self.body = body
        hostName = headers["Host"].flatMap(Self.normalizedHostName)

        // The usual target is origin-form without a query: it is its own raw path, with no copy.
        let raw: String
        if target.utf8.first == UInt8(ascii: "/"), !Self.contains(UInt8(ascii: "?"), in: target) {
            raw = target
            rawQuery = nil
        } else {
            let originForm = Self.originForm(of: target)
            if let questionMark = originForm.utf8.firstIndex(of: UInt8(ascii: "?")) {
                raw = String(originForm[..<questionMark])
                rawQuery = String(originForm[originForm.utf8.index(after: questionMark)...])
            } else {
                raw = String(originForm)
                rawQuery = nil
            }
        }
        self.rawPath = raw
        // The usual path has nothing to decode: it shares the raw path's storage.
        if Self.contains(UInt8(ascii: "%"), in: raw) {
            let decodedPath = PercentCoding.decode(raw)
            path = decodedPath.text
            pathIsMalformed = decodedPath.isMalformed
        } else {
            path = raw
            pathIsMalformed = false
        }
    }

    /// The query's items, decoded, in the order sent (repeats kept), with `+` read as a space as
    /// browsers encode forms (WHATWG `application/x-www-form-urlencoded`). Split on every call.
    public var queryItems: [HTTPQueryItem] {
        QueryString(rawQuery ?? "", decoding: .form).map { HTTPQueryItem(name: $0.name, value: $0.value) }
    }

    /// True when the path or query had a broken `%` escape or decoded to bytes that are not UTF-8;
    /// broken escapes stay as written and bad bytes become U+FFFD, so the request is still usable.
    public var hasMalformedEncoding: Bool {
        pathIsMalformed || QueryString(rawQuery ?? "", decoding: .form).contains(where: \.isMalformed)
    }

    /// The value of the first query item named `name` (`""` for `?name`), `nil` when absent.
    public func queryValue(_ name: String) -> String? {
        guard let item = queryItems.first(where: { $0.name == name }) else { return nil }
        return item.value ?? ""
    }

    /// Lowercases a Host value and strips a `:port` and a trailing dot. `[::1]:8080` gives `::1`.
    public static func normalizedHostName(_ host: String) -> String? {
        // Fast path, the usual case: already a bare lower-case name (no port, no trailing dot).
        let bare = host.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.isEmpty && bytes.last != UInt8(ascii: ".")
                && bytes.allSatisfy {
                    ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                        || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                }
        }
        if bare == true { return host }
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return nil }
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty else { return nil }
        return name.lowercased()
    }

    /// Whether `text` holds the byte `byte`: `memchr` over its contiguous UTF-8 storage (what a
    /// native string has). A generic walk of the UTF-8 view cost thirty times more, and a loop over
    /// the buffer still six instructions a byte (per request, twice).
    private static func contains(_ byte: UInt8, in text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(byte), bytes.count) != nil
        } ?? text.utf8.contains(byte)
    }

    /// The path-and-query part of an absolute-form target (`http://host/p?q` gives `/p?q`).
    private static func originForm(of target: String) -> Substring {
        let text = Substring(target)
        guard text.utf8.first != UInt8(ascii: "/") else { return text }
        let lowered = text.prefix(8).lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return text }
        let afterScheme = text[text.index(text.startIndex, offsetBy: lowered.hasPrefix("https://") ? 8 : 7)...]
        guard let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterScheme[slash...]
        return rest.hasPrefix("?") ? Substring("/" + rest) : rest
    }
}
