import HTTPServing
import Synchronization
import TestSupport
import Testing

/// Heads a proxy in front and this server could read two ways, and bodies over the limit however
/// they are framed, sent byte for byte over a real socket: what libmicrohttpd hands over (C strings
/// cut at a NUL, repeated fields) is only visible through it.
@Suite("Hostile request heads and bodies", .ownThread)
struct HostileHeadTests {
    /// A server that answers 200 with the Host it saw, and counts the requests its responder got.
    private final class Probe: Sendable {
        private final class Counter: Sendable {
            let value = Atomic<Int>(0)
        }

        let server: HTTPServer
        private let counter = Counter()
        var answered: Int { counter.value.load(ordering: .relaxed) }

        init(bodyLimit: Int = 64 * 1024) throws {
            var configuration = HTTPServerConfiguration(threadCount: 1)
            configuration.maximumBodySize = bodyLimit
            let counter = counter
            server = HTTPServer(
                configuration: configuration,
                responder: ClosureResponder { request in
                    counter.value.add(1, ordering: .relaxed)
                    return HTTPResponse(status: 200, contentType: "text/plain", text: "host=\(request.headers["Host"] ?? "-")")
                })
            try server.start()
        }

        func send(_ head: [UInt8]) throws -> RawHTTPClient.Response {
            let client = try RawHTTPClient(port: server.port)
            try client.send(head)
            return try client.readResponse()
        }

        func send(_ head: String) throws -> RawHTTPClient.Response { try send(Array(head.utf8)) }
    }

    @Test(arguments: [
        ("two Host fields", "GET / HTTP/1.1\r\nHost: a.example\r\nHost: a.example\r\n\r\n", "more than one Host"),
        ("two different Host fields", "GET / HTTP/1.1\r\nHost: a.example\r\nhost: evil.example\r\n\r\n", "more than one Host"),
        ("HTTP/1.1 without Host", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", "needs a Host"),
        ("NUL in the Host value", "GET / HTTP/1.1\r\nHost: a.example\u{0}.evil.example\r\n\r\n", "NUL byte"),
        ("NUL in another value", "GET / HTTP/1.1\r\nHost: a.example\r\nX-A: a\u{0}b\r\n\r\n", "NUL byte"),
        // libmicrohttpd itself refuses a NUL in a field name or in the version, with its own page.
        ("NUL in a field name", "GET / HTTP/1.1\r\nX\u{0}A: b\r\nHost: a.example\r\n\r\n", ""),
        ("NUL in the method", "GET\u{0} / HTTP/1.1\r\nHost: a.example\r\n\r\n", "request line"),
        ("NUL in the target", "GET /a\u{0}b HTTP/1.1\r\nHost: a.example\r\n\r\n", "request line"),
        ("NUL in the version", "GET / HTTP/1.1\u{0}x\r\nHost: a.example\r\n\r\n", ""),
        ("a folded field line", "GET / HTTP/1.1\r\nHost: a.example\r\nX-Fold: a\r\n  b\r\n\r\n", "folded"),
        ("two different Content-Length fields", "POST / HTTP/1.1\r\nHost: a.example\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", "different values"),
        (
            "Content-Length beside Transfer-Encoding",
            "POST / HTTP/1.1\r\nHost: a.example\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "both Content-Length"
        ),
        ("a bare CR in a value", "GET / HTTP/1.1\r\nHost: a.example\r\nX-A: a\rb\r\n\r\n", "CR or LF"),
    ])
    func ambiguousHeadsGet400AndNeverReachTheResponder(name: String, head: String, detail: String) throws {
        let probe = try Probe()
        defer { probe.server.stop() }
        let response = try probe.send(head)
        #expect(response.status == 400, "\(name)")
        if !detail.isEmpty {
            #expect(response.text.contains(detail), "\(name)")
            #expect(response.header("Connection") == "close")
        }
        #expect(probe.answered == 0, "\(name) reached the responder")
    }

    /// The smuggling attempt of RFC 9112 §6.3's concern, byte for byte: a body whose length two
    /// readers would read two ways, with a second request hidden in it. The 400 closes the connection
    /// before anything after the head is read, so the hidden request is never answered.
    @Test func aRequestReadTwoWaysIsRefusedAndWhatItHidesNeverRuns() throws {
        let probe = try Probe()
        defer { probe.server.stop() }
        let event = #"{"event":"copy","path":"/addfriend?code=ABC123"}"#
        let hidden = "GET /joingroup HTTP/1.1\r\nHost: rowhni.com\r\n\r\n"
        let client = try RawHTTPClient(port: probe.server.port)
        try client.send(
            "POST /v1/events HTTP/1.1\r\nHost: rowhni.com\r\nContent-Type: application/json\r\nContent-Length: \(event.utf8.count)\r\n"
                + "Content-Length: \(event.utf8.count + hidden.utf8.count)\r\n\r\n" + event + hidden)
        let response = try client.readResponse()
        #expect(response.status == 400)
        #expect(response.header("Connection") == "close")
        #expect(client.isClosedByPeer())
        #expect(probe.answered == 0)
    }

    @Test(arguments: [
        ("no space after the colon", "GET / HTTP/1.1\r\nHost:a.example\r\n\r\n"),
        ("trailing whitespace", "GET / HTTP/1.1\r\nHost: a.example \t\r\nX-A:  b  \r\n\r\n"),
        ("bare LF line ends", "GET / HTTP/1.1\nHost: a.example\nX-A: b\n\n"),
        ("empty values, last one too", "GET / HTTP/1.1\r\nX-Empty:\r\nHost: a.example\r\nX-Last: \r\n\r\n"),
        ("Host last", "GET / HTTP/1.1\r\nAccept: */*\r\nHost: a.example\r\n\r\n"),
        ("an escaped NUL in the query", "GET /?x=%00 HTTP/1.1\r\nHost: a.example\r\n\r\n"),
        ("HTTP/1.0 with Host", "GET / HTTP/1.0\r\nHost: a.example\r\n\r\n"),
    ])
    func wellFormedHeadsAreServedWithTheirHostTrimmed(name: String, head: String) throws {
        let probe = try Probe()
        defer { probe.server.stop() }
        let response = try probe.send(head)
        #expect(response.status == 200, "\(name)")
        #expect(response.text == "host=a.example", "\(name)")
    }

    @Test func http10WithoutHostReachesTheResponder() throws {
        let probe = try Probe()
        defer { probe.server.stop() }
        let response = try probe.send("GET / HTTP/1.0\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.text == "host=-")
    }

    /// libmicrohttpd cannot answer in the middle of a body, so a chunked body over the limit is read
    /// and dropped to its end, then refused: the client sees the 413 instead of a reset connection.
    @Test(arguments: [80, 512, 1024, 3 * 1024])
    func aChunkedBodyOverTheLimitGets413(kilobytes: Int) throws {
        let probe = try Probe()
        defer { probe.server.stop() }
        let client = try RawHTTPClient(port: probe.server.port, timeoutSeconds: 30)
        try client.send("POST / HTTP/1.1\r\nHost: a.example\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 0x61, count: 16 * 1024) + Array("\r\n".utf8)
        for _ in 0..<(kilobytes / 16) { try client.send(chunk) }
        try client.send("0\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains("payload_too_large"))
        #expect(probe.answered == 0)
    }
}
