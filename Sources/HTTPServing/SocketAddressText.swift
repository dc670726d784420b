import Glibc

/// Text forms of socket addresses. IPv4-mapped IPv6 peers (`::ffff:1.2.3.4`, seen on dual-stack
/// sockets) are written as plain IPv4 so one client always has one address in logs and limits.
package enum SocketAddressText {
    static func address(_ pointer: UnsafePointer<sockaddr>) -> String? {
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { dottedQuad(UInt32(bigEndian: $0.pointee.sin_addr.s_addr)) }
        case AF_INET6:
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var address = ipv6.pointee.sin6_addr
                guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.hasPrefix("::ffff:"), text.contains(".") { return String(text.dropFirst(7)) }
                return text
            }
        default:
            return nil
        }
    }

    /// An IPv4 address (in host byte order) as inet_ntop writes it, without its buffers and format
    /// string: this runs for every request, and at most 15 bytes stay a small string with no allocation.
    package static func dottedQuad(_ address: UInt32) -> String {
        String(unsafeUninitializedCapacity: 15) { buffer in
            var count = 0
            for shift in stride(from: 24, through: 0, by: -8) {
                let octet = Int((address >> UInt32(shift)) & 0xFF)
                func append(_ byte: UInt8) {
                    buffer[count] = byte
                    count += 1
                }
                if octet >= 100 { append(UInt8(ascii: "0") + UInt8(octet / 100)) }
                if octet >= 10 { append(UInt8(ascii: "0") + UInt8(octet / 10 % 10)) }
                append(UInt8(ascii: "0") + UInt8(octet % 10))
                if shift > 0 { append(UInt8(ascii: ".")) }
            }
            return count
        }
    }

    static func port(of storage: inout sockaddr_storage) -> Int? {
        withUnsafePointer(to: &storage) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            default:
                nil
            }
        }
    }
}
