import Foundation
import Glibc
import Synchronization

/// The service manager's end of the sd_notify protocol for tests: a Unix datagram socket bound at
/// a path (what a test puts in `NOTIFY_SOCKET`), keeping every message it gets, each one's lines
/// joined by `|` (`READY=1|STATUS=…|`).
public final class NotifySocketListener: Sendable {
    public let path: String
    private let descriptor: Int32
    private let messages = Mutex<[String]>([])

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket(AF_UNIX): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(descriptor)
            throw Failure(description: "the socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw Failure(description: "bind(\(path)): \(reason)")
        }
        self.path = path
        self.descriptor = descriptor
        Thread { [self] in receive() }.start()
    }

    /// Waits until a message containing `text` has arrived.
    public func waitForMessage(containing text: String, timeoutSeconds: Double = 20) -> Bool {
        waitUntil(timeoutSeconds: timeoutSeconds) { messages.withLock { $0.contains { $0.contains(text) } } }
    }

    /// Every message so far.
    public var received: [String] { messages.withLock { $0 } }

    /// Ends the reader (a shutdown wakes its `recv`) and removes the socket's file.
    public func close() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
        unlink(path)
    }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            let text = String(decoding: buffer[0..<count], as: UTF8.self).replacingOccurrences(of: "\n", with: "|")
            messages.withLock { $0.append(text) }
        }
        Glibc.close(descriptor)
    }
}
