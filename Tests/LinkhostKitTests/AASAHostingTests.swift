import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// The shipped config, listening on an ephemeral loopback port with two worker threads, checked by
/// the loader like any file. The hit log goes to `logDatabase`, or is off, so no test writes into the
/// repository; `settings` replaces values by dotted path (`"server.publicDirectory"`), and `editing`
/// changes the document before that (to add an Android app to a site, say).
func shippedConfiguration(
    unknownHost: UnknownHostPolicy = .notFound, logDatabase: String? = nil, settings: [String: JSONValue] = [:], from file: String = ProjectPaths.shippedConfig,
    editing: (JSONValue) -> JSONValue = { $0 }
) throws -> LinkhostConfiguration {
    var document = editing(try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: file)))))
    // An 8 MiB journal: the tests' files live in memory (/dev/shm), where a journal's reserved
    // blocks are memory, and the default (1 GiB) is sized for a production outage.
    var replaced: [String: JSONValue] = ["server.limits.threads": 2, "log.enabled": .bool(logDatabase != nil), "log.journal.sizeBytes": 8_388_608]
    if case .site(let id) = unknownHost { replaced["server.unknownHost"] = .string(id) }
    replaced.merge(settings) { _, given in given }
    for (path, value) in replaced { document = document.setting(path, to: value) }
    var overrides = ConfigurationOverrides()
    overrides.listenAddress = .init("127.0.0.1", from: "the test")
    overrides.port = .init(0, from: "the test")
    overrides.databasePath = logDatabase.map { .init($0, from: "the test") }
    return try ConfigurationLoader.parse(document.serialized(), source: file, baseDirectory: ProjectPaths.root, overrides: overrides)
}

/// A well-known JSON file (the AASA file, assetlinks.json) answered as platforms require: 200,
/// exactly `application/json`, never redirected, the shipped cache policy, a strong tag of exactly
/// the expected bytes.
func expectServedExactly(_ response: RawHTTPClient.Response, _ expected: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == 200, sourceLocation: sourceLocation)
    #expect(response.header("Content-Type") == "application/json", sourceLocation: sourceLocation)
    #expect(response.header("Content-Length") == "\(expected.count)", sourceLocation: sourceLocation)
    #expect(response.header("Location") == nil, sourceLocation: sourceLocation)
    #expect(response.header("Cache-Control") == "public, max-age=3600", sourceLocation: sourceLocation)
    #expect(response.header("ETag") == EntityTag.strong(for: expected), sourceLocation: sourceLocation)
    #expect(response.body == expected, sourceLocation: sourceLocation)
}

func startedServer(_ configuration: LinkhostConfiguration) throws -> LinkhostServer {
    let server = try LinkhostServer(configuration: configuration)
    try server.start()
    return server
}

/// What the server answers for the AASA file and around it, in-process (`LinkhostServer.answer`);
/// HEAD, a 304's length, a request without a Host and the listener's counters go over a socket.
@Suite("AASA hosting over HTTP", .ownThread)
struct AASAHostingTests {
    static let aasaPaths = ["/.well-known/apple-app-site-association", "/apple-app-site-association"]

    @Test(arguments: ["forums.somethingawful.com", "archives.somethingawful.com", "rowhni.com"], aasaPaths)
    func eachHostGetsItsSitesFileExactlyOnBothPaths(host: String, path: String) throws {
        let configuration = try shippedConfiguration()
        let server = try LinkhostServer(configuration: configuration)
        let expected = try #require(configuration.sites.first { $0.hosts.contains(host) }).aasa.bytes
        let response = try server.inProcess.request("GET", path, host: host, headers: [("User-Agent", "AASA-Bot/1.0.0")])
        expectServedExactly(response, expected)
    }

    /// Every component of seed 000's file has a generated component at least as broad: the same
    /// path, and query constraints that are a subset of the seed's (so every URL the seed's
    /// component opens, ours opens too); the comments of the seed are kept.
    @Test func theForumsFileCoversSeed000sFile() throws {
        let server = try LinkhostServer(configuration: try shippedConfiguration())
        let body = try server.inProcess.request("GET", "/.well-known/apple-app-site-association", host: "forums.somethingawful.com").body
        let document = try JSONParser().parse(body)
        let ours = try #require(document["applinks"]?["details"]?.arrayElements?.first?["components"]?.arrayElements)
        let seed = try #require(try JSONParser().parse(Seed000.aasa)["applinks"]?["details"]?.arrayElements?.first?["components"]?.arrayElements)
        for component in seed {
            let seedQuery = component["?"]?.objectMembers ?? []
            let covering = ours.first { candidate in
                candidate["/"] == component["/"]
                    && (candidate["?"]?.objectMembers ?? []).allSatisfy { member in seedQuery.contains(member) }
            }
            #expect(covering != nil, "no generated component covers \(component.jsonText(.compact))")
            #expect(ours.contains { $0["comment"] == component["comment"] }, "seed comment \(component["comment"]!) is kept")
        }
        #expect(document["applinks"]?["details"]?.arrayElements?.first?["appIDs"] == ["TEAMID.com.awfulapp.Awful"])
    }

    @Test func rowhnisFileCoversBothInvitePathsWithACode() throws {
        let server = try LinkhostServer(configuration: try shippedConfiguration())
        let body = try server.inProcess.request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com").body
        let document = try JSONParser().parse(body)
        let details = try #require(document["applinks"]?["details"]?.arrayElements?.first)
        #expect(details["appIDs"] == ["TEAMID.com.yaman.rowhni"])
        let components = try #require(details["components"]?.arrayElements)
        #expect(components.map { $0["/"] } == ["/addfriend", "/joingroup"])
        #expect(components.map { $0["?"] } == [.object([JSONMember("code", "?*")]), .object([JSONMember("code", "?*")])])
        // iOS 12 and older read the legacy form in the same entry.
        #expect(details["appID"] == "TEAMID.com.yaman.rowhni")
        #expect(details["paths"] == ["/addfriend", "/joingroup"])
    }

    @Test(arguments: ["FORUMS.SomethingAwful.com", "forums.somethingawful.com:8080", "forums.somethingawful.com.", "Forums.SomethingAwful.COM.:443"])
    func theHostHeaderIsMatchedIgnoringCasePortAndTrailingDot(host: String) throws {
        let configuration = try shippedConfiguration()
        let server = try LinkhostServer(configuration: configuration)
        let response = try server.inProcess.request("GET", "/.well-known/apple-app-site-association", host: host)
        #expect(response.status == 200)
        #expect(response.body == configuration.site(id: "awful")?.aasa.bytes)
    }

    @Test func headGivesTheHeadersAndLengthWithoutTheBody() throws {
        let configuration = try shippedConfiguration()
        let server = try startedServer(configuration)
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let head = try client.request("HEAD", "/.well-known/apple-app-site-association", host: "rowhni.com")
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "application/json")
        #expect(head.header("Content-Length") == "\(configuration.site(id: "rowhni")!.aasa.bytes.count)")
        #expect(head.body.isEmpty)
        #expect(try client.request("GET", "/healthz", host: "rowhni.com").status == 200)
    }

    /// RFC 9110, section 8.6: a 304's Content-Length, when sent, is the length of the 200's content
    /// (the HTTP layer writes it, so it is checked on the wire).
    @Test func a304OnTheWireCarriesOnlyThe200sLength() throws {
        let server = try startedServer(try shippedConfiguration())
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let first = try client.request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com")
        #expect(first.header("Content-Length") == "\(first.body.count)")
        let tag = try #require(first.header("ETag"))
        for header in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
            let again = try client.request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com", headers: [("If-None-Match", header)])
            #expect(again.status == 304, "If-None-Match: \(header)")
            #expect(again.body.isEmpty)
            #expect(again.headerValues("Content-Length").allSatisfy { $0 == first.header("Content-Length") })
        }
    }

    @Test func aMatchingIfNoneMatchGets304WithNoBody() throws {
        let server = try LinkhostServer(configuration: try shippedConfiguration())
        let client = server.inProcess
        let first = try client.request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com")
        let tag = try #require(first.header("ETag"))
        for header in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
            let again = try client.request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com", headers: [("If-None-Match", header)])
            #expect(again.status == 304, "If-None-Match: \(header)")
            #expect(again.header("ETag") == tag)
            #expect(again.header("Cache-Control") == "public, max-age=3600")
            #expect(again.body.isEmpty)
        }
        let stale = try client.request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com", headers: [("If-None-Match", "\"stale\"")])
        #expect(stale.status == 200)
        // Another site's tag does not validate this site's file.
        let forumsTag = try #require(try client.request("HEAD", "/apple-app-site-association", host: "forums.somethingawful.com").header("ETag"))
        #expect(forumsTag != tag)
        #expect(try client.request("GET", "/apple-app-site-association", host: "rowhni.com", headers: [("If-None-Match", forumsTag)]).status == 200)
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "BREW"])
    func otherMethodsGet405WithAllow(method: String) throws {
        let server = try LinkhostServer(configuration: try shippedConfiguration())
        let response = try server.inProcess.request(method, "/.well-known/apple-app-site-association", host: "rowhni.com")
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD")
    }

    @Test(arguments: [
        "/", "/nothing-here", "/.well-known/apple-app-site-association/", "/.well-known/apple-app-site-association.json",
        "/.WELL-KNOWN/apple-app-site-association", "/AddFriend?code=TEST123",
    ])
    func unknownPathsGet404(path: String) throws {
        let server = try LinkhostServer(configuration: try shippedConfiguration())
        let response = try server.inProcess.request("GET", path, host: "rowhni.com")
        #expect(response.status == 404)
        #expect(response.header("Location") == nil)
    }

    @Test func anUnknownHostGets404UnlessADefaultSiteIsConfigured() throws {
        let strict = try LinkhostServer(configuration: try shippedConfiguration())
        let unknown = try strict.inProcess.request("GET", "/.well-known/apple-app-site-association", host: "<script>evil.example")
        #expect(unknown.status == 404)
        #expect(!unknown.text.contains("evil"))
        #expect(try strict.inProcess.request("GET", "/.well-known/apple-app-site-association", host: nil, version: "HTTP/1.0").status == 404)

        let configuration = try shippedConfiguration(unknownHost: .site("rowhni"))
        let lenient = try LinkhostServer(configuration: configuration)
        let fallback = try lenient.inProcess.request("GET", "/.well-known/apple-app-site-association", host: "localhost")
        #expect(fallback.status == 200)
        #expect(fallback.body == configuration.site(id: "rowhni")?.aasa.bytes)
    }

    @Test func healthReportsStateAsJSON() throws {
        let server = try startedServer(try shippedConfiguration())
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        _ = try client.request("GET", "/.well-known/apple-app-site-association", host: "rowhni.com")
        let response = try client.request("GET", "/healthz", host: "anything.example")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("Cache-Control") == "no-store")
        // The public answer is the status alone; the report in full is the admin listener's.
        #expect(try JSONParser().parse(response.body) == .object([JSONMember("status", "ok")]), "\(response.text)")
        let report = server.healthDetails
        #expect(report["status"] == "ok")
        #expect(report["version"]?.stringValue == LinkhostVersion.current)
        #expect(report["sites"]?.arrayElements?.compactMap { $0["id"]?.stringValue } == ["rowhni", "awful"])
        #expect(report["http"]?["responsesSent"]?.numberValue?.intValue ?? 0 >= 1)
    }
}

/// Seed 000's AASA file, as the seed prints it.
enum Seed000 {
    static let aasa = """
        {
            "applinks": {
                "details": [
                    {
                        "appIDs": ["TEAMID.com.awfulapp.Awful"],
                        "components": [
                            {"comment": "Forum display pages", "/": "/forumdisplay.php", "?": {"forumid": "?*"}},
                            {"comment": "Thread pages", "/": "/showthread.php", "?": {"threadid": "?*"}},
                            {"comment": "Post links", "/": "/showthread.php", "?": {"goto": "post", "postid": "?*"}},
                            {"comment": "User profiles", "/": "/member.php", "?": {"action": "getinfo", "userid": "?*"}},
                            {"comment": "Ban list and rap sheets", "/": "/banlist.php"}
                        ]
                    }
                ]
            }
        }
        """
}
