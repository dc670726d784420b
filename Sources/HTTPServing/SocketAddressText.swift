import Glibc

/// Text forms of socket addresses. IPv4-mapped IPv6 peers (`::ffff:1.2.3.4`, seen on dual-stack
/// sockets) are written as plain IPv4 so one client always has one address in logs and limits.
enum SocketAddressText {
    static func address(_ pointer: UnsafePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var address = ipv4.pointee.sin_addr
                guard inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        case AF_INET6:
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
