import Glibc

/// What of a client's IP address the log keeps. The default keeps the network, not the person:
/// enough to see where traffic comes from, not enough to single out one device.
public enum ClientAddressPolicy: String, Sendable, CaseIterable {
    /// IPv4 cut to its /24 (`203.0.113.0`), IPv6 to its /48 (`2001:db8:1::`).
    case truncated
    /// No address at all.
    case omit

    /// The address as this policy stores it; `nil` when omitted or when `address` is not an IP address.
    public func apply(to address: String?) -> String? {
        switch self {
        case .omit: nil
        case .truncated: address.flatMap(Self.truncate)
        }
    }
}

extension ClientAddressPolicy {
    /// A bare IP address cut to its network: IPv4 to /24, IPv6 to /48, IPv4-mapped IPv6
    /// (`::ffff:203.0.113.9`) as IPv4. Accepts `[...]` brackets and a `%zone`; anything else that is
    /// not an address (ports, host names, junk) gives `nil`, never a crash.
    public static func truncate(_ address: String) -> String? {
        // Nearly every address is a plain IPv4 one, and this runs for every logged request: the
        // general path below (Characters, inet_pton, arrays) was 5 % of a worker's time under load.
        if let network = truncatedDottedQuad(address) { return network }
        return truncatedByParsing(address)
    }

    /// The /24 of `address` when it is a canonical dotted quad (four decimal octets of at most 255
    /// without leading zeros, nothing else), read from its bytes; `nil` for anything else, which
    /// `truncatedByParsing` then decides. Equal to that path's answer wherever both give one.
    package static func truncatedDottedQuad(_ address: String) -> String? {
        let bytes = address.utf8
        guard bytes.count >= 7, bytes.count <= 15 else { return nil }
        var octets = 0
        var digits = 0
        var value = 0
        var firstDigit: UInt8 = 0
        var lastDotEnd = bytes.startIndex
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard digits > 0, octets < 3 else { return nil }
                octets += 1
                digits = 0
                value = 0
                lastDotEnd = index
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                if digits == 0 { firstDigit = byte }
                digits += 1
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard digits <= 3, value <= 255, !(digits > 1 && firstDigit == UInt8(ascii: "0")) else { return nil }
            } else {
                return nil
            }
        }
        guard octets == 3, digits > 0 else { return nil }
        return String(address[..<lastDotEnd]) + ".0"
    }

    /// `truncate` for any input: brackets, zones, spaces, IPv6 and IPv4-mapped IPv6.
    package static func truncatedByParsing(_ address: String) -> String? {
        var text = Substring(address).trimmingSpaces()
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        guard !text.isEmpty, text.utf8.count <= Int(INET6_ADDRSTRLEN) else { return nil }
        let literal = String(text)

        if literal.utf8.contains(UInt8(ascii: ":")) {
            var address = in6_addr()
            guard inet_pton(AF_INET6, literal, &address) == 1 else { return nil }
            var bytes = withUnsafeBytes(of: &address) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return "\(bytes[12]).\(bytes[13]).\(bytes[14]).0"
            }
            for index in 6..<16 { bytes[index] = 0 }
            return bytes.withUnsafeBytes { raw -> String? in
                var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
                guard inet_ntop(AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil else { return nil }
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }

        var address = in_addr()
        guard inet_pton(AF_INET, literal, &address) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        return "\(bytes[0]).\(bytes[1]).\(bytes[2]).0"
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
