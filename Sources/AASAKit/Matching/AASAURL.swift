import PercentCoding

/// A URL split into the parts AASA rules look at, keeping path, query and fragment exactly as
/// written (percent escapes included).
///
/// Foundation's `URL` re-encodes and normalises; `"percentEncoded": true` rules compare against the
/// text as written, so this splitter (RFC 3986 generic syntax) changes nothing but the case of the
/// scheme and host. A string starting with `/` is accepted as a path-only URL with no host.
public struct AASAURL: Sendable, Hashable, CustomStringConvertible {
    /// The scheme in lower case (`https`), or `nil` for a path-only URL.
    public let scheme: String?
    /// The host in lower case, without brackets for IPv6 literals, or `nil` for a path-only URL.
    public let host: String?
    /// The host as hosts are compared: percent-escapes decoded and every label in ASCII, an IDN's
    /// as its `xn--` A-label (``IDNA``); `nil` for a path-only URL.
    public let asciiHost: String?
    /// The port when one is written.
    public let port: Int?
    /// The path as written; empty when the URL has none (rules then read it as `/`).
    public let path: String
    /// The text after `?` up to `#`, as written; `nil` when the URL has no `?` at all.
    public let query: String?
    /// The text after `#`, as written; `nil` when the URL has no `#`.
    public let fragment: String?
    /// The URL exactly as given.
    public let text: String

    /// Splits `text`; throws when it is not an absolute web URL or a path starting with `/`.
    public init(_ text: String) throws(AASAURLError) {
        self.text = text
        if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw AASAURLError("the URL contains the control character U+\(String(bad.value, radix: 16, uppercase: true)); remove it")
        }
        var rest = Substring(text)
        var scheme: String?
        var host: String?
        var port: Int?
        if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
            guard rest.hasPrefix("//") else {
                throw AASAURLError("\"\(text)\" has no \"//host\" after \"\(scheme ?? ""):\"; write a URL such as https://example.com/path")
            }
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            (host, port) = try Self.splitAuthority(rest[..<authorityEnd], in: text)
            rest = rest[authorityEnd...]
        } else if scheme == nil, !rest.hasPrefix("/") {
            throw AASAURLError("\"\(text)\" is neither an absolute URL nor a path; write https://example.com/path or /path")
        }
        self.scheme = scheme
        self.host = host
        if let host {
            let decoded = host.contains("%") ? PercentCoding.decode(host).text : host
            do {
                asciiHost = try IDNA.asciiHost(decoded)
            } catch {
                throw AASAURLError("\"\(text)\" has an invalid host: \(error.reason)")
            }
        } else {
            asciiHost = nil
        }
        self.port = port
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        } else {
            query = nil
        }
        path = String(rest)
    }

    public var description: String { text }

    /// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
    private static func isScheme(_ candidate: Substring) -> Bool {
        guard let first = candidate.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return candidate.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "+" || scalar == "-" || scalar == ".")
        }
    }

    private static func splitAuthority(_ authority: Substring, in text: String) throws(AASAURLError) -> (String, Int?) {
        var hostAndPort = authority
        if let at = authority.lastIndex(of: "@") { hostAndPort = authority[authority.index(after: at)...] }
        var hostText: Substring
        var portText: Substring?
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else {
                throw AASAURLError("\"\(text)\" opens an IPv6 host with '[' but never closes it")
            }
            hostText = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            let afterClose = hostAndPort[hostAndPort.index(after: close)...]
            if afterClose.hasPrefix(":") {
                portText = afterClose.dropFirst()
            } else if !afterClose.isEmpty {
                throw AASAURLError("\"\(text)\" has text after the IPv6 host that is not a port")
            }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            hostText = hostAndPort[..<colon]
            portText = hostAndPort[hostAndPort.index(after: colon)...]
        } else {
            hostText = hostAndPort
        }
        guard !hostText.isEmpty else { throw AASAURLError("\"\(text)\" has no host name") }
        var port: Int?
        if let portText, !portText.isEmpty {
            guard portText.count <= 5, portText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let number = Int(portText), number <= 65535
            else {
                throw AASAURLError("\"\(text)\" has the port \"\(portText)\", which is not a number from 0 to 65535")
            }
            port = number
        }
        return (hostText.lowercased(), port)
    }
}

/// Why a string could not be read as a URL to match; the message says what to type instead.
public struct AASAURLError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
