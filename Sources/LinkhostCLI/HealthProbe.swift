import Foundation
import Glibc

/// A single HTTP/1.1 GET over a socket, reading only the status line. Kept this small on purpose:
/// it runs every 30 seconds inside the container and must not need libcurl.
enum HealthProbe {
    static func get(_ target: ProbeTarget, timeoutSeconds: Int) -> Result<Int, ProbeFailure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target.host, String(target.port), &hints, &list) == 0, let first = list else {
            return .failure(ProbeFailure("cannot resolve \(target.host)"))
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { return .failure(ProbeFailure("socket: \(String(cString: strerror(errno)))")) }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            return .failure(ProbeFailure("connect: \(String(cString: strerror(errno)))"))
        }
        let request = Array("GET \(target.path) HTTP/1.1\r\nHost: \(target.host)\r\nUser-Agent: linkhost-probe\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            return .failure(ProbeFailure("send: \(String(cString: strerror(errno)))"))
        }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return .failure(ProbeFailure("no answer within \(timeoutSeconds) s")) }
        let statusLine = String(decoding: buffer[0..<count].prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            return .failure(ProbeFailure("not an HTTP answer: \(statusLine)"))
        }
        return .success(status)
    }
}

/// Why a probe failed.
struct ProbeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
