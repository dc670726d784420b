import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// An operator must always reach the dashboard: idle connections, however many a script or a
/// keep-alive client leaves open, must not use up the admin listener.
@Suite("The admin listener under idle connections", .ownThread)
struct AdminLockoutTests {
    @Test func anAuthenticatedRequestIsAnsweredWithHundredsOfIdleConnectionsOpen() throws {
        let harness = try AdminHarness()
        defer { harness.stop() }
        // 300 connections that never send a byte: with a thread per connection and its old limit
        // of 32, every request after them was closed unanswered.
        var idle: [RawHTTPClient] = []
        for _ in 0..<300 { idle.append(try RawHTTPClient(port: harness.admin.port)) }
        let answer = try harness.admin("/api/v1/stats?by=day")
        #expect(answer.status == 200)
        // The idle ones are still open (not dropped to make room): each can still ask.
        let late = try idle[0].request("GET", "/admin.css", host: "127.0.0.1")
        #expect(late.status == 200)
        withExtendedLifetime(idle) {}
    }

    @Test func theLimitsAreSettings() throws {
        let folder = try TemporaryDirectory("linkhost-admin-limits")
        let configuration = try AdminHarness.configuration(
            in: folder, settings: ["server.admin.limits": .object([JSONMember("connections", 5), JSONMember("connectionTimeoutSeconds", 7)])])
        #expect(configuration.server.admin.connectionLimit == 5)
        #expect(configuration.server.admin.connectionTimeoutSeconds == 7)
        let defaults = try AdminHarness.configuration(in: folder)
        #expect(defaults.server.admin.connectionLimit == 1024)
        #expect(defaults.server.admin.connectionTimeoutSeconds == 30)
    }
}
