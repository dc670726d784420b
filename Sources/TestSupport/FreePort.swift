import Glibc
import Synchronization

/// A TCP port that is free on every address right now, for programs that must be told a port
/// rather than report one.
///
/// Ports come from below the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`
/// starts at 32768), in turn from a random start: the kernel hands ports of that range to every
/// outgoing connection, so a port found free there could be taken by some test's client socket
/// before the server it was meant for binds it (seen: "cannot listen on 0.0.0.0:38291: the address
/// is already in use"), and a port handed out once is not handed out again by this process.
public enum FreePort {
    static let first = 20_000
    static let count = 12_000
    private static let next = Mutex(Int.random(in: 0..<count))

    public static func find() throws -> Int {
        for _ in 0..<count {
            let port =
                first
                + next.withLock { next in
                    defer { next = (next + 1) % count }
                    return next
                }
            if isFree(port) { return port }
        }
        throw RawHTTPClient.ClientError.connect("no free port in \(first)..<\(first + count)")
    }

    /// Whether a listening socket could bind `port` on every address now (a socket in TIME_WAIT does
    /// not count: servers bind with SO_REUSEADDR).
    static func isFree(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_ANY
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
