import Glibc
import PercentCoding

/// A request as the server received it, ready for a responder.
///
/// The raw request target is kept next to its decoded path. The query is kept as sent and split only
/// when asked (`queryItems`): most requests (the AASA file, static files) never need it, and a
/// responder that does splits it once and keeps the items.
public struct HTTPRequest: Sendable {
    /// The request's parts, kept in one object: a request is handed from the server to the
    /// responder, the exchange and the observers, and each copy of ten separately counted strings
    /// and arrays cost ten retains and ten releases; one reference costs one. Nothing changes a request once it is made.
    private final class Parts: Sendable {
        let method: String
        let target: String
        let path: String
        let rawPath: String
        let rawQuery: String?
        let pathIsMalformed: Bool
        let version: String
        let headers: HTTPHeaders
        let clientAddress: String?
        let hostName: String?
        let body: [UInt8]

        init(
            method: String, target: String, path: String, rawPath: String, rawQuery: String?, pathIsMalformed: Bool, version: String,
            headers: HTTPHeaders, clientAddress: String?, hostName: String?, body: [UInt8]
        ) {
            self.method = method
            self.target = target
            self.path = path
            self.rawPath = rawPath
            self.rawQuery = rawQuery
            self.pathIsMalformed = pathIsMalformed
            self.version = version
            self.headers = headers
            self.clientAddress = clientAddress
            self.hostName = hostName
            self.body = body
        }
    }

    private let parts: Parts

    /// The method as sent (`GET`, `HEAD`, ...). HEAD is answered like GET; the server drops the body.
    public var method: String { parts.method }
    /// The request target exactly as it appeared on the request line.
    public var target: String { parts.target }
    /// The target's path, percent-decoded.
    public var path: String { parts.path }
    /// The target's path as sent, before decoding.
    public var rawPath: String { parts.rawPath }
    /// The text after the first `?`, as sent; `nil` when the target has no `?`.
    public var rawQuery: String? { parts.rawQuery }
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String { parts.version }
    public var headers: HTTPHeaders { parts.headers }
    /// The peer's IP address in text form, `nil` when unknown.
    public var clientAddress: String? { parts.clientAddress }
    /// The `Host` header without a port or a trailing dot, lowercased; `nil` when absent or empty.
    /// Worked out once, when the request is made: routing and logging both need it.
    public var hostName: String? { parts.hostName }
    /// The request body (empty for GET and HEAD); bounded by `HTTPServerConfiguration.maximumBodySize`.
    public var body: [UInt8] { parts.body }

    /// Builds a request from a raw target; the path and query are decoded here.
    public init(
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: HTTPHeaders = HTTPHeaders(),
        clientAddress: String? = nil,
        body: [UInt8] = []
    ) {
        // The usual target is origin-form without a query: it is its own raw path, with no copy.
        let raw: String
        let rawQuery: String?
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
        // The usual path has nothing to decode: it shares the raw path's storage.
        let path: String
        let pathIsMalformed: Bool
        if Self.contains(UInt8(ascii: "%"), in: raw) {
            let decodedPath = PercentCoding.decode(raw)
            path = decodedPath.text
            pathIsMalformed = decodedPath.isMalformed
        } else {
            path = raw
            pathIsMalformed = false
        }
        parts = Parts(
            method: method, target: target, path: path, rawPath: raw, rawQuery: rawQuery, pathIsMalformed: pathIsMalformed, version: version,
            headers: headers, clientAddress: clientAddress, hostName: headers["Host"].flatMap(Self.normalizedHostName), body: body)
    }

    /// The query's items, decoded, in the order sent (repeats kept), with `+` read as a space as
    /// browsers encode forms (WHATWG `application/x-www-form-urlencoded`). Split on every call.
    public var queryItems: [HTTPQueryItem] {
        QueryString(rawQuery ?? "", decoding: .form).map { HTTPQueryItem(name: $0.name, value: $0.value) }
    }

    /// True when the path or query had a broken `%` escape or decoded to bytes that are not UTF-8;
    /// broken escapes stay as written and bad bytes become U+FFFD, so the request is still usable.
    public var hasMalformedEncoding: Bool {
        parts.pathIsMalformed || QueryString(rawQuery ?? "", decoding: .form).contains(where: \.isMalformed)
    }

    /// The value of the first query item named `name` (`""` for `?name`), `nil` when absent.
    public func queryValue(_ name: String) -> String? {
        guard let item = queryItems.first(where: { $0.name == name }) else { return nil }
        return item.value ?? ""
    }

    /// Lowercases a Host value and strips a `:port` and a trailing dot. `[::1]:8080` gives `::1`.
    public static func normalizedHostName(_ host: String) -> String? {
        // Fast path, the usual case: already a bare lower-case name (no port, no trailing dot).
        // Over the contiguous bytes: walking `utf8` of a small string goes through its index
        // type for every byte, on every request.
        let bare = host.utf8.withContiguousStorageIfAvailable { bytes in
            guard let last = bytes.last, last != UInt8(ascii: ".") else { return false }
            for byte in bytes where !isBareNameByte(byte) { return false }
            return true
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

    /// A lower-case letter, digit, dot or hyphen: what a host name needs no normalizing for.
    private static func isBareNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// Whether `text` holds the byte `byte`: `memchr` over its contiguous UTF-8 storage (what a
    /// native string has). A generic walk of the UTF-8 view costs many times more, and so does a
    /// loop over the buffer testing a byte at a time (per request, twice).
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
