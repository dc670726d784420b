import Foundation
import Glibc

/// A single HTTP/1.1 GET over a socket. Kept this small on purpose: it runs every 30 seconds inside
/// the container and must not need libcurl. The container's check reads only the status line;
/// `probe --details` also sends the admin token and reads the whole answer.
enum HealthProbe {
    /// The most of an answer read whole: the health report is a few kilobytes.
    static let answerLimit = 4 << 20

    /// GETs `target`'s path with `headers`; with `wholeAnswer`, reads the answer to its end (the
    /// request asks the server to close the connection after it), else only the status line.
    static func get(
        _ target: ProbeTarget, headers: [(name: String, value: String)] = [], wholeAnswer: Bool = false, timeoutSeconds: Int
    ) -> Result<ProbeAnswer, ProbeFailure> {
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
        let fields = headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        let request = Array(
            "GET \(target.path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\nUser-Agent: linkhost-probe\r\n\(fields)Connection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            return .failure(ProbeFailure("send: \(String(cString: strerror(errno)))"))
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: wholeAnswer ? 65536 : 512)
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        repeat {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                guard errno == EAGAIN || errno == EWOULDBLOCK else { return .failure(ProbeFailure("recv: \(String(cString: strerror(errno)))")) }
                return .failure(ProbeFailure("no answer within \(timeoutSeconds) s"))
            }
            if count == 0 { break }
            answer += buffer[0..<count]
            guard answer.count <= answerLimit else { return .failure(ProbeFailure("the answer is over \(answerLimit >> 20) MiB")) }
            guard ContinuousClock.now < deadline else { return .failure(ProbeFailure("the answer took over \(timeoutSeconds) s")) }
        } while wholeAnswer
        guard !answer.isEmpty else { return .failure(ProbeFailure("no answer within \(timeoutSeconds) s")) }
        let statusLine = String(decoding: answer.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            return .failure(ProbeFailure("not an HTTP answer: \(statusLine)"))
        }
        guard wholeAnswer else { return .success(ProbeAnswer(status: status, body: [])) }
        return body(of: answer).map { ProbeAnswer(status: status, body: $0) }
    }

    /// The body of a whole answer: after the head, `Content-Length` bytes when the head gives one.
    private static func body(of answer: [UInt8]) -> Result<[UInt8], ProbeFailure> {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = answer.indices.dropLast(3).first(where: { answer[$0..<$0 + 4].elementsEqual(separator) }) else {
            return .failure(ProbeFailure("the answer ended inside its head"))
        }
        let head = String(decoding: answer[..<end], as: UTF8.self).lowercased()
        let body = Array(answer[(end + 4)...])
        let fields = head.split(separator: "\r\n").dropFirst()
        // The admin listener sends its reports whole, with a length; a chunked answer is not one of them.
        if fields.contains(where: { $0.hasPrefix("transfer-encoding:") }) {
            return .failure(ProbeFailure("the answer is chunked, which probe does not read"))
        }
        guard let field = fields.first(where: { $0.hasPrefix("content-length:") }) else { return .success(body) }
        guard let length = Int(field.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)), body.count >= length else {
            return .failure(ProbeFailure("the answer was cut short"))
        }
        return .success(Array(body.prefix(length)))
    }
}

/// An answer's status and, when it was read whole, its body.
struct ProbeAnswer {
    let status: Int
    let body: [UInt8]
}

/// Why a probe failed.
struct ProbeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
