import Glibc

/// A bound, listening TCP socket, made here rather than by libmicrohttpd so that a failure names
/// its cause (libmicrohttpd only says "could not start"), and so the bound port is known at once.
struct ListeningSocket {
    let descriptor: Int32
    let port: Int
    /// The address it is bound to, as text (`0.0.0.0`, `::`, `127.0.0.1`).
    let address: String

    /// Binds `address:port` and starts listening. `::` listens on IPv6 and IPv4 both.
    static func open(address: String, port: Int, backlog: Int) throws(HTTPServerError) -> ListeningSocket {
        let host = address == "localhost" ? "127.0.0.1" : address
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        let family: Int32
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            family = AF_INET
        } else if inet_pton(AF_INET6, host, &ipv6) == 1 {
            family = AF_INET6
        } else {
            throw .cannotListen(
                address: address, port: port, reason: "\"\(address)\" is not an IP address; use an IPv4 or IPv6 literal such as 0.0.0.0, 127.0.0.1, :: or ::1")
        }
        let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(family, streamType, 0)
        guard descriptor >= 0 else {
            throw .cannotListen(address: address, port: port, reason: "socket() failed: \(Self.errnoText())")
        }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var bindResult: Int32
        if family == AF_INET {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
            socketAddress.sin_addr = ipv4
            bindResult = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        } else {
            var no: Int32 = 0
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &no, socklen_t(MemoryLayout<Int32>.size))
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = in_port_t(UInt16(port).bigEndian)
            socketAddress.sin6_addr = ipv6
            bindResult = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        guard bindResult == 0 else {
            let code = errno
            close(descriptor)
            throw .cannotListen(address: address, port: port, reason: Self.bindAdvice(code))
        }
        guard listen(descriptor, Int32(backlog)) == 0 else {
            let text = errnoText()
            close(descriptor)
            throw .cannotListen(address: address, port: port, reason: "listen() failed: \(text)")
        }
        return ListeningSocket(descriptor: descriptor, port: boundPort(of: descriptor) ?? port, address: boundAddress(of: descriptor) ?? host)
    }

    /// A listening socket this process was given (socket activation), checked to be one: a passed
    /// descriptor that is not a listening stream socket would otherwise fail silently at accept.
    static func adopt(_ descriptor: Int32) throws(HTTPServerError) -> ListeningSocket {
        var accepting: Int32 = 0
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0 else {
            throw .cannotStart("the passed descriptor \(descriptor) is not a socket: \(errnoText())")
        }
        length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length)
        guard accepting == 1, type == Int32(SOCK_STREAM.rawValue) else {
            throw .cannotStart("the passed descriptor \(descriptor) is not a listening TCP socket (ListenStream= in the .socket unit)")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return ListeningSocket(descriptor: descriptor, port: boundPort(of: descriptor) ?? 0, address: boundAddress(of: descriptor) ?? "")
    }

    private static func boundAddress(of descriptor: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 ? SocketAddressText.address($0) : nil }
        }
    }

    private static func boundPort(of descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        return SocketAddressText.port(of: &storage)
    }

    private static func bindAdvice(_ code: Int32) -> String {
        switch code {
        case EADDRINUSE: "the address is already in use; stop the program using it or choose another port"
        case EACCES: "permission denied; ports below 1024 need root or CAP_NET_BIND_SERVICE, or choose a port of 1024 or more"
        case EADDRNOTAVAIL: "this machine has no such address; use 0.0.0.0 (all IPv4 addresses), :: or 127.0.0.1"
        default: "bind() failed: \(String(cString: strerror(code)))"
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
