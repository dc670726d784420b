import Glibc

/// The proxies in front of the server whose word on the client's address is taken: behind a TLS
/// terminator every connection comes from the terminator, and the visitor's address is only in the
/// `Forwarded` (RFC 7239) or `X-Forwarded-For` field it adds.
///
/// Those fields are read only when the connection comes from a trusted proxy — from anyone else
/// they are ignored, so a visitor cannot choose the address that is logged and rate-limited. The
/// client is the right-most address of the list that is not itself a trusted proxy: each proxy
/// appends the address it saw, so everything left of the first untrusted hop is the client's own
/// claim. `Forwarded` wins over `X-Forwarded-For` when both came.
public struct TrustedProxies: Sendable, Equatable {
    /// One trusted address or network (`10.0.0.0/8`, `127.0.0.1`, `fd00::/8`).
    public struct Network: Sendable, Equatable, CustomStringConvertible {
        /// The address's bytes (4 or 16) and how many leading bits must match.
        let bytes: [UInt8]
        let prefixLength: Int
        public let description: String

        /// `nil` when `text` is not an IP address with an optional `/prefix` within its size.
        public init?(_ text: String) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = TrustedProxies.addressBytes(String(parts[0])) else { return nil }
            let bits = bytes.count * 8
            if parts.count == 2 {
                guard let length = Int(parts[1]), (0...bits).contains(length), parts[1].allSatisfy(\.isASCII) else { return nil }
                prefixLength = length
            } else {
                prefixLength = bits
            }
            self.bytes = bytes
            description = text
        }

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for index in 0..<bytes.count where remaining > 0 {
                let take = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - take))
                if address[index] & mask != bytes[index] & mask { return false }
                remaining -= take
            }
            return true
        }
    }

    public var networks: [Network]

    public init(_ networks: [Network] = []) {
        self.networks = networks
    }

    public var isEmpty: Bool { networks.isEmpty }

    /// Whether `address` (text, as the server writes peers) is a trusted proxy.
    public func trusts(_ address: String) -> Bool {
        guard let bytes = Self.addressBytes(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The client's address for a connection from `peer` with `headers`: `peer` itself unless it
    /// is a trusted proxy; else the right-most forwarded address that is not one. A forwarded entry
    /// that is not an IP address (`unknown`, an obfuscated `_name`) ends the walk: the nearest
    /// trusted hop is then the best that is known.
    public func clientAddress(peer: String?, headers: HTTPHeaders) -> String? {
        guard let peer, !networks.isEmpty, trusts(peer) else { return peer }
        let forwarded = headers.values(for: "Forwarded")
        let chain = forwarded.isEmpty ? Self.forwardedForList(headers.values(for: "X-Forwarded-For")) : Self.forwardedList(forwarded)
        var nearest = peer
        for entry in chain.reversed() {
            guard let address = Self.plainAddress(entry) else { return nearest }
            if !trusts(address) { return address }
            nearest = address
        }
        return nearest
    }

    /// The addresses of `X-Forwarded-For` fields, left to right (repeated fields join in order).
    static func forwardedForList(_ values: [String]) -> [Substring] {
        values.flatMap { $0.split(separator: ",") }.map { trimmed($0) }
    }

    /// The `for=` parameters of `Forwarded` fields (RFC 7239 §4), left to right; an element without
    /// one counts as an unknown hop.
    static func forwardedList(_ values: [String]) -> [Substring] {
        values.flatMap { $0.split(separator: ",") }.map { element in
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, trimmed(parts[0]).lowercased() == "for" else { continue }
                var value = trimmed(parts[1])
                if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
                return value
            }
            return "unknown"
        }
    }

    /// An entry as an address: IPv4 with an optional `:port`, IPv6 bare or as `[address]:port`.
    static func plainAddress(_ entry: Substring) -> String? {
        var text = entry
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if let colon = text.firstIndex(of: ":"), text.lastIndex(of: ":") == colon {
            text = text[..<colon]
        }
        let address = String(text)
        guard let bytes = addressBytes(address) else { return nil }
        // Written as the server writes peers: an IPv4-mapped IPv6 address as plain IPv4.
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return SocketAddressText.dottedQuad(UInt32(bytes[12]) << 24 | UInt32(bytes[13]) << 16 | UInt32(bytes[14]) << 8 | UInt32(bytes[15]))
        }
        return address
    }

    /// The bytes of an IPv4 (4) or IPv6 (16) address in text, `nil` for anything else.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            return withUnsafeBytes(of: &ipv4) { Array($0) }
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, text, &ipv6) == 1 {
            return withUnsafeBytes(of: &ipv6) { Array($0) }
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
