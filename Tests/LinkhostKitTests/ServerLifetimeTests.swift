import Foundation
import HTTPServing
import TestSupport
import Testing

@testable import LinkhostKit

/// A stopped server is freed: nothing inside it (listeners, responder, health report, hit log)
/// keeps the others alive in a cycle.
@Suite("Server lifetime", .ownThread)
struct ServerLifetimeTests {
    @Test(arguments: [false, true])
    func aStoppedServerIsDeallocated(withLog: Bool) throws {
        let folder = try TemporaryDirectory()
        weak var released: LinkhostServer?
        weak var listener: HTTPServer?
        do {
            let server = try startedServer(try shippedConfiguration(logDatabase: withLog ? folder.path + "/hits.sqlite" : nil))
            let response = try RawHTTPClient(port: server.port).request("GET", "/healthz", host: "rowhni.com")
            #expect(response.status == 200)
            server.stop()
            released = server
            listener = server.listeners.first
        }
        #expect(released == nil, "a stopped LinkhostServer is still referenced")
        // The listener owns the responder, which owns the health report: the report must not own
        // the listener back.
        #expect(listener == nil, "a stopped listener is kept alive by a reference cycle")
    }
}
