import Foundation
import Glibc
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 that answers each request with the next of a list of
/// scripted replies (the last one repeating) and records what it received: for the answers the
/// real server cannot be made to give on demand (503, 429 with `Retry-After`, a body that is no
/// route, an answer held back, a connection dropped). One connection at a time, each closed after
/// its answer. Its thread holds it until `stop()`, which every test calls and which frees the port.
final class ScriptedHTTPServer: Sendable {
    /// One scripted answer.
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String] = [:]
        var body: String = ""
        /// Sent only once the test calls `release()` (or at `stop()`): an answer that is still
        /// coming, for as long as the test needs, without a timed pause.
        var held = false
        /// No answer: the connection is reset once the request is read, as by a server that is going
        /// down (a failure the client retries).
        var drops = false

        static func json(_ status: Int, _ body: String, headers: [String: String] = [:], held: Bool = false) -> Reply {
            Reply(status: status, headers: headers.merging(["Content-Type": "application/json"]) { first, _ in first }, body: body, held: held)
        }

        static let dropped = Reply(status: 0, drops: true)

        static let route = json(
            200, #"{"site": "rowhni", "rule": "addfriend", "appURL": "rowhni://addfriend?code=ABC123", "parameters": {"code": "ABC123"}}"#)
    }

    /// One request as it arrived.
    struct Request: Sendable {
        var method: String
        var target: String
        /// Header names lower-cased.
        var headers: [String: String]
        var body: Data
        /// `ProcessInfo.systemUptime` when the request had been read.
        var receivedAt: TimeInterval
    }

    let port: Int
    private let listener: Int32
    private let replies: [Reply]
    private let log = Mutex<[Request]>([])
    private let stopping = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let dropCount = Atomic<Int>(0)

    init(_ replies: [Reply]) throws {
        precondition(!replies.isEmpty)
        self.replies = replies
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = listener
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(descriptor, pointer, length) == 0, listen(descriptor, 16) == 0 else { return -1 }
                return getsockname(descriptor, pointer, &length)
            }
        }
        guard listener >= 0, bound == 0 else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.stackSize = 1 << 18
        thread.start()
    }

    /// The requests received so far, in order (dropped ones included).
    var requests: [Request] { log.withLock { $0 } }

    /// How many connections were reset without an answer (`Reply.dropped`).
    var drops: Int { dropCount.load(ordering: .relaxed) }

    /// Lets the held answer go out.
    func release() { gate.signal() }

    /// Stops accepting (a request being answered is finished first, a held one released); waits for
    /// the thread to end, which closes the listening socket, so the port is free again.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        release()
        stopped.wait()
    }

    private func serve() {
        defer {
            close(listener)
            stopped.signal()
        }
        while !stopping.load(ordering: .acquiring) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            answer(connection)
            close(connection)
        }
    }

    private func answer(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = read(connection) else { return }
        let index = log.withLock { log in
            log.append(request)
            return log.count - 1
        }
        let reply = replies[min(index, replies.count - 1)]
        if reply.drops {
            // SO_LINGER with no time: close sends a reset, not an orderly end.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            dropCount.add(1, ordering: .relaxed)
            return
        }
        if reply.held { gate.wait() }
        let body = Array(reply.body.utf8)
        var head = "HTTP/1.1 \(reply.status) Scripted\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in reply.headers { head += "\(name): \(value)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Reads one request (head, then a body of `Content-Length` bytes); `nil` when the client
    /// went away first.
    private func read(_ connection: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        func more() -> Bool {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            bytes += buffer[0..<count]
            return true
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            guard more() else { return nil }
            if bytes.count >= 4 {
                headEnd = (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(separator) }
            }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: bytes[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while bytes.count < headEnd + 4 + length {
            guard more() else { return nil }
        }
        return Request(
            method: requestLine.first.map(String.init) ?? "",
            target: requestLine.dropFirst().first.map(String.init) ?? "",
            headers: headers,
            body: Data(bytes[(headEnd + 4)..<(headEnd + 4 + length)]),
            receivedAt: ProcessInfo.processInfo.systemUptime
        )
    }
}
