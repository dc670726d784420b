import Foundation
import Glibc
import HTTPServing
import Synchronization

/// A stand-in for Apple's CDN on a loopback port: answers `GET /a/v1/<host>` with the answer set
/// for that host (a 404 without one), and records which hosts were asked, with the
/// `Apple-Proxied-Domain-Name` header each request carried. A real HTTP server (linkhost's own
/// HTTPServing), stopped by `stop()`.
final class FakeCDN: Sendable {
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPHeaders = [:]
        var body: [UInt8] = []

        static func file(_ bytes: [UInt8], age: Int? = nil, lastModified: String? = nil) -> Answer {
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            if let age { headers.set("Age", String(age)) }
            if let lastModified { headers.set("Last-Modified", lastModified) }
            return Answer(status: 200, headers: headers, body: bytes)
        }

        /// The CDN's answer for an origin that failed, as observed: 404 with Apple's failure headers.
        static let noCopy = Answer(
            status: 404,
            headers: [
                "Apple-Failure-Reason": "SWCERR00101 Bad HTTP Response: 404 Not Found", "Apple-Failure-Details": #"{"status":"404 Not Found"}"#,
                "Cache-Control": "max-age=3600,public",
            ])
    }

    /// What the server answers and what it was asked, shared with its responder.
    private final class Book: Sendable {
        let answers: Mutex<[String: Answer]>
        let asked = Mutex<[(host: String, proxiedDomain: String?)]>([])

        init(_ answers: [String: Answer]) { self.answers = Mutex(answers) }

        func answer(_ request: HTTPRequest) -> HTTPResponse {
            let prefix = "/a/v1/"
            guard request.path.hasPrefix(prefix) else { return HTTPResponse(status: 404) }
            let host = String(request.path.dropFirst(prefix.count))
            asked.withLock { $0.append((host, request.headers["Apple-Proxied-Domain-Name"])) }
            guard let answer = answers.withLock({ $0[host] }) else { return HTTPResponse(status: 404) }
            return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body)
        }
    }

    private let server: HTTPServer
    private let book: Book

    init(_ answers: [String: Answer]) throws {
        let book = Book(answers)
        self.book = book
        server = HTTPServer(configuration: HTTPServerConfiguration(threadCount: 2), responder: ClosureResponder { book.answer($0) })
        try server.start()
    }

    /// `http://127.0.0.1:<port>`.
    var base: String { "http://127.0.0.1:\(server.port)" }

    /// Replaces what the CDN answers for `host`.
    func set(_ host: String, _ answer: Answer) {
        book.answers.withLock { $0[host] = answer }
    }

    /// The hosts asked so far, in order, with their `Apple-Proxied-Domain-Name`.
    var requests: [(host: String, proxiedDomain: String?)] { book.asked.withLock { $0 } }

    func stop() { server.stop() }
}

/// A loopback port that accepts connections (the kernel completes them) but never answers: a CDN
/// that has gone quiet, for timeouts. Closed by `close()`.
final class SilentPort: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketDescriptor, 16) == 0 else {
            Glibc.close(socketDescriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        descriptor = socketDescriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    var base: String { "http://127.0.0.1:\(port)" }

    func close() { Glibc.close(descriptor) }
}
