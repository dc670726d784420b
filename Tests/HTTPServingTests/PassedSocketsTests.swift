import Foundation
import Glibc
import HTTPServing
import Logging
import Synchronization
import TestSupport
import Testing

/// Socket activation: what the service manager's variables say, and a passed socket that outlives
/// the server serving it, so the next one answers connections made in between.
@Suite("Passed sockets")
struct PassedSocketsTests {
    static let pid: Int32 = 4242

    static func environment(_ count: String, names: String? = nil, pid: Int32 = pid) -> [String: String] {
        var environment = ["LISTEN_FDS": count, "LISTEN_PID": "\(pid)"]
        environment["LISTEN_FDNAMES"] = names
        return environment
    }

    @Test func namedSocketsGoToTheirListenersAndOneUnnamedIsHTTP() throws {
        #expect(try PassedSockets.from(environment: Self.environment("1"), processIdentifier: Self.pid) == PassedSockets(http: 3))
        // systemd names an unnamed socket after its unit; alone, it is still the public one.
        #expect(try PassedSockets.from(environment: Self.environment("1", names: "linkhost.socket"), processIdentifier: Self.pid) == PassedSockets(http: 3))
        #expect(
            try PassedSockets.from(environment: Self.environment("3", names: "https:admin:http"), processIdentifier: Self.pid)
                == PassedSockets(http: 5, https: 3, admin: 4))
    }

    @Test func variablesMeantForAnotherProcessOrNoneAreNoSockets() throws {
        #expect(try PassedSockets.from(environment: [:], processIdentifier: Self.pid).isEmpty)
        #expect(try PassedSockets.from(environment: Self.environment("1", pid: 1), processIdentifier: Self.pid).isEmpty)
        #expect(try PassedSockets.from(environment: ["LISTEN_FDS": "1"], processIdentifier: Self.pid).isEmpty)
        #expect(try PassedSockets.from(environment: Self.environment("0"), processIdentifier: Self.pid).isEmpty)
    }

    @Test(
        arguments: [
            ("x", nil, "LISTEN_FDS is \"x\""),
            ("2", "http", "LISTEN_FDNAMES names 1 socket(s) but LISTEN_FDS passes 2"),
            ("2", "http:web", "socket 2 is named \"web\"; name each with FileDescriptorName=http, https or admin"),
            ("2", "http:http", "two sockets named \"http\""),
        ] as [(String, String?, String)])
    func aConfusedManagerIsToldWhatToFix(count: String, names: String?, expected: String) {
        #expect {
            try PassedSockets.from(environment: Self.environment(count, names: names), processIdentifier: Self.pid)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test func aPassedSocketOutlivesItsServerAndTheNextOneAnswersWhatWaited() throws {
        let held = try HeldSocket()
        let port = held.port
        var logger = Logger(label: "linkhost.passed")
        logger.logLevel = .error
        func server(_ answer: String) throws -> HTTPServer {
            // Each server gets its own descriptor for the socket, as each process gets fd 3.
            let mine = dup(held.descriptor)
            let server = HTTPServer(
                configuration: HTTPServerConfiguration(threadCount: 1, drainSeconds: 0, inheritedListener: mine), logger: logger,
                responder: ClosureResponder { _ in HTTPResponse(status: 200, contentType: "text/plain", text: answer) })
            try server.start()
            #expect(server.port == port)
            #expect(server.boundAddress == "127.0.0.1")
            return server
        }
        let first = try server("first")
        #expect(try RawHTTPClient(port: port).request("GET", "/").text == "first")
        first.stop()
        // Stopped, the server left the socket listening: a connection made now waits in its backlog.
        let waiting = try RawHTTPClient(port: port, timeoutSeconds: 10)
        try waiting.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let second = try server("second")
        defer { second.stop() }
        #expect(try waiting.readResponse().text == "second")
    }

    @Test func aDescriptorThatIsNoListeningSocketIsRefusedAtStart() throws {
        let file = open("/dev/null", O_RDONLY)
        defer { close(file) }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(inheritedListener: file), responder: ClosureResponder { _ in HTTPResponse(status: 204) })
        #expect {
            try server.start()
        } throws: { error in
            "\(error)".contains("is not a socket")
        }
    }
}
