import Glibc

/// A deliberately small HTTP/1.1 client over a real TCP socket, for tests that must control every
/// byte on the wire (odd methods, Host variants, HEAD, pipelining, half-sent requests).
public final class RawHTTPClient {
    /// A parsed response; also what in-process tests read, so a test reads an answer the same way
    /// whether it came over a socket or straight from a responder.
    public struct Response: Sendable {
        public var statusLine: String
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(status: Int, headers: [(name: String, value: String)], body: [UInt8], statusLine: String? = nil) {
            self.statusLine = statusLine ?? "HTTP/1.1 \(status)"
            self.status = status
            self.headers = headers
            self.body = body
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public func headerValues(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public enum ClientError: Error, CustomStringConvertible {
        case connect(String)
        case closedBeforeResponse
        case malformed(String)
        case timedOut

        public var description: String {
            switch self {
            case .connect(let reason): "connect failed: \(reason)"
            case .closedBeforeResponse: "the server closed the connection before a complete response"
            case .malformed(let what): "malformed response: \(what)"
            case .timedOut: "timed out waiting for the server"
            }
        }
    }

    public let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to `host:port` (IPv4 or IPv6 literal), optionally from a given local IPv4 address.
    public init(host: String = "127.0.0.1", port: Int, timeoutSeconds: Double = 10, sourceAddress: String? = nil) throws {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        let isIPv6 = inet_pton(AF_INET, host, &ipv4) != 1
        if isIPv6, inet_pton(AF_INET6, host, &ipv6) != 1 { throw ClientError.connect("bad address \(host)") }
        let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw ClientError.connect("socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let sourceAddress {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, sourceAddress, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                throw ClientError.connect("bind \(sourceAddress): \(String(cString: strerror(errno)))")
            }
        }
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = ipv6
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = ipv4
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            throw ClientError.connect(String(cString: strerror(errno)))
        }
    }

    // The only place the socket is closed. An initializer that throws after `descriptor` is set
    // still runs deinit (every stored property is initialized), so it must not close it itself:
    // that was a double close, which could close a descriptor number another thread had reused.
    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Sends raw bytes.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw ClientError.connect("send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Sends a request with the given method, target and headers (a Host header is added unless given).
    public func request(
        _ method: String = "GET",
        _ target: String,
        host: String? = "localhost",
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        if let host, !headers.contains(where: { $0.0.lowercased() == "host" }) { head += "Host: \(host)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readResponse(isHead: method == "HEAD")
    }

    /// Reads one response; for HEAD (and 204/304) there is no body whatever Content-Length says.
    public func readResponse(isHead: Bool = false) throws -> Response {
        var headEnd: Int?
        while headEnd == nil {
            if let end = findHeadEnd() {
                headEnd = end
                break
            }
            guard try fill() else {
                throw buffer.isEmpty ? ClientError.closedBeforeResponse : ClientError.malformed("incomplete head")
            }
        }
        let headText = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = headText.components(separatedByCRLF: ())
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ClientError.malformed(statusLine) }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            headers.append((name, String(value)))
        }
        var response = Response(status: status, headers: headers, body: [], statusLine: statusLine)
        if isHead || status == 204 || status == 304 || (100..<200).contains(status) { return response }
        if let lengthText = response.header("Content-Length"), let length = Int(lengthText) {
            while buffer.count < length {
                guard try fill() else { throw ClientError.malformed("body shorter than Content-Length") }
            }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            response.body = try readChunked()
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// True when the server has closed its side (a read returns end of file).
    /// What has arrived and not been read as a response yet, as text.
    public var receivedText: String { String(decoding: buffer, as: UTF8.self) }

    public func isClosedByPeer() -> Bool {
        guard buffer.isEmpty else { return false }
        return (try? fill()) == false
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            guard let size = Int(line.split(separator: ";").first ?? "", radix: 16) else { throw ClientError.malformed("chunk size \(line)") }
            if size == 0 {
                while try !readLine().isEmpty {}
                return body
            }
            while buffer.count < size + 2 {
                guard try fill() else { throw ClientError.malformed("chunk cut short") }
            }
            body += buffer[0..<size]
            buffer.removeFirst(size + 2)
        }
    }

    private func readLine() throws -> String {
        while true {
            if let index = findCRLF() {
                let line = String(decoding: buffer[0..<index], as: UTF8.self)
                buffer.removeFirst(index + 2)
                return line
            }
            guard try fill() else { throw ClientError.malformed("line cut short") }
        }
    }

    private func findCRLF() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for index in 0..<(buffer.count - 1) where buffer[index] == 13 && buffer[index + 1] == 10 { return index }
        return nil
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Reads more bytes; false at end of stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer += chunk[0..<count]
            return true
        }
        if count == 0 { return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
        if errno == ECONNRESET { return false }
        throw ClientError.connect("recv: \(String(cString: strerror(errno)))")
    }
}

extension String {
    fileprivate func components(separatedByCRLF: ()) -> [String] {
        var result: [String] = []
        var current = ""
        var previousWasCR = false
        for character in unicodeScalars {
            if character == "\n" && previousWasCR {
                current.removeLast()
                result.append(current)
                current = ""
                previousWasCR = false
                continue
            }
            current.unicodeScalars.append(character)
            previousWasCR = character == "\r"
        }
        result.append(current)
        return result
    }
}
