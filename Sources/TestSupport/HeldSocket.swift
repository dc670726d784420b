import Glibc

/// A listening TCP socket on 127.0.0.1 that a test holds as a service manager does: passed to each
/// server it starts (`ChildProcess(passing:)`, `HTTPServerConfiguration.inheritedListener`), and
/// kept open across their restarts, so connections made in between wait in its backlog.
public final class HeldSocket: Sendable {
    public let descriptor: Int32
    public let port: Int

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(backlog: Int32 = 511) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, listen(descriptor, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "bind/listen on 127.0.0.1: \(reason)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
