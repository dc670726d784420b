import CurlHTTP
import Foundation
import HTTPServing
import Synchronization
import TestSupport
import Testing

/// CurlHTTP against the repository's own HTTPS server on a real socket, its certificate from a CA
/// that only the given CA file makes trusted.
@Suite("CurlHTTP: requests through libcurl")
struct CurlHTTPClientTests {
    final class RequestLog: Sendable {
        private let requests = Mutex<[HTTPRequest]>([])
        func append(_ request: HTTPRequest) { requests.withLock { $0.append(request) } }
        var last: HTTPRequest? { requests.withLock { $0.last } }
    }

    final class Server: Sendable {
        let folder: TemporaryDirectory
        let files: TestCertificateFiles
        let server: HTTPServer
        let seen = RequestLog()

        init() throws {
            folder = try TemporaryDirectory("curl")
            files = try TestCertificateFiles(in: folder)
            let tls = TLSCredentials(
                certificateChainPEM: try String(contentsOfFile: files.certificateFile, encoding: .utf8),
                privateKeyPEM: try String(contentsOfFile: files.keyFile, encoding: .utf8))
            let seen = seen
            server = HTTPServer(
                configuration: HTTPServerConfiguration(threadCount: 1, tls: tls),
                responder: ClosureResponder { request in
                    seen.append(request)
                    switch request.path {
                    case "/redirect":
                        return HTTPResponse(status: 302, headers: ["Location": "/echo"])
                    case "/large":
                        return HTTPResponse(status: 200, body: [UInt8](repeating: 0x41, count: 200_000))
                    default:
                        var headers: HTTPHeaders = ["Replay-Nonce": "abc", "Link": "<a>;rel=\"up\""]
                        headers.add("Link", "<b>;rel=\"index\"")
                        return HTTPResponse(
                            status: 201, headers: headers, body: Array("\(request.method) \(String(decoding: request.body, as: UTF8.self))".utf8))
                    }
                })
            try server.start()
        }

        var base: String { "https://127.0.0.1:\(server.port)" }

        deinit { server.stop() }
    }

    @Test func trustsTheGivenCAAndReadsStatusHeadersAndBody() async throws {
        let server = try Server()
        let client = CurlHTTPClient(configuration: CurlHTTPConfiguration(caCertificateFile: server.files.caFile))
        let body = Array(#"{"protected":"x"}"#.utf8)
        let response = try await client.send(
            CurlHTTPRequest(method: .post, url: server.base + "/echo", headers: [("Content-Type", "application/jose+json")], body: body))
        #expect(response.status == 201)
        #expect(response.bodyText == #"POST {"protected":"x"}"#)
        #expect(response.header("replay-nonce") == "abc")
        #expect(response.headers(named: "Link") == [#"<a>;rel="up""#, #"<b>;rel="index""#])
        let seen = try #require(server.seen.last)
        #expect(seen.headers["Content-Type"] == "application/jose+json")
        #expect(seen.headers["Expect"] == nil, "no 100-continue round trip")

        let head = try client.perform(CurlHTTPRequest(method: .head, url: server.base + "/echo"))
        #expect(head.status == 201 && head.body.isEmpty && head.header("Replay-Nonce") == "abc")
        #expect(server.seen.last?.method == "HEAD")
    }

    @Test func refusesTheServerWithoutTheCAFile() throws {
        let server = try Server()
        #expect {
            try CurlHTTPClient().perform(CurlHTTPRequest(url: server.base + "/echo"))
        } throws: { error in
            (error as? CurlHTTPError)?.reason == .tls
        }
    }

    @Test func followsRedirectsOnlyWhenAsked() throws {
        let server = try Server()
        let client = CurlHTTPClient(configuration: CurlHTTPConfiguration(caCertificateFile: server.files.caFile))
        let plain = try client.perform(CurlHTTPRequest(url: server.base + "/redirect"))
        #expect(plain.status == 302 && plain.header("Location") == "/echo")
        let followed = try client.perform(CurlHTTPRequest(url: server.base + "/redirect", followRedirects: true))
        #expect(followed.status == 201 && followed.bodyText == "GET ")
        #expect(followed.header("Location") == nil, "only the last response's fields")
    }

    @Test func boundsTheBodyAndNamesWhatFailed() throws {
        let server = try Server()
        let client = CurlHTTPClient(configuration: CurlHTTPConfiguration(caCertificateFile: server.files.caFile, maximumResponseSize: 100_000))
        #expect {
            try client.perform(CurlHTTPRequest(url: server.base + "/large"))
        } throws: { error in
            (error as? CurlHTTPError)?.reason == .tooLarge
        }
        #expect {
            try client.perform(CurlHTTPRequest(url: "file:///etc/passwd"))
        } throws: { error in
            (error as? CurlHTTPError)?.reason == .invalidURL
        }
        let closed = try FreePort.find()
        #expect {
            try client.perform(CurlHTTPRequest(url: "https://127.0.0.1:\(closed)/"))
        } throws: { error in
            (error as? CurlHTTPError)?.reason == .couldNotConnect
        }
    }

    @Test func manyThreadsAtOnce() async throws {
        let server = try Server()
        let client = CurlHTTPClient(configuration: CurlHTTPConfiguration(caCertificateFile: server.files.caFile))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await client.send(CurlHTTPRequest(method: .post, url: server.base + "/echo", body: Array("\(index)".utf8))).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 201, count: 24))
    }
}
