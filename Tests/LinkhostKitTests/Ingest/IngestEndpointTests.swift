import Foundation
import LinkLog
import LinkLogSQLite
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// The report endpoints: POSTs answered by a server in this process (the serving path but the
/// socket), rows read back from the SQLite file once `stop` has written them. What the HTTP layer
/// decides (a body over the limit, a body that stalls) goes over a socket.
@Suite("App opens and page events", .ownThread, .serialized)
struct IngestEndpointTests {
    static let key = "test-ingest-key-0123456789"
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory() }

    /// The shipped config with every site's ingest rate limit set, logging into the test's folder.
    private func configuration(burst: Int = 100, perSecond: Int = 10, timeoutSeconds: Int? = nil) throws -> LinkhostConfiguration {
        var settings: [String: JSONValue] = [:]
        if let timeoutSeconds { settings["server.limits.connectionTimeoutSeconds"] = .number(JSONNumber(timeoutSeconds)) }
        var document = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.shippedConfig))))
        let limit = JSONValue.object([JSONMember("burst", .number(JSONNumber(burst))), JSONMember("perSecond", .number(JSONNumber(perSecond)))])
        let sites = (document["sites"]?.arrayElements ?? []).map { $0.setting("ingest.rateLimit", to: limit) }
        document = document.setting("sites", to: .array(sites))
        let file = try folder.write("config.json", String(decoding: document.serialized(), as: UTF8.self))
        return try shippedConfiguration(logDatabase: folder.path + "/log.sqlite", settings: settings, from: file)
    }

    /// A server answering in-process; `listening` starts its listener too.
    private func started(
        _ configuration: LinkhostConfiguration, keys: [String: String] = ["rowhni": key, "awful": key], listening: Bool = false
    ) throws -> LinkhostServer {
        let server = try LinkhostServer(configuration: configuration, ingestKeys: try IngestKeys(keys))
        if listening { try server.start() }
        return server
    }

    private func rows() throws -> [LogRow] {
        try LogReader(databasePath: folder.path + "/log.sqlite").rows(LogFilter())
    }

    private func open(
        _ client: InProcessClient, _ body: String, host: String = "rowhni.com", key: String? = key, contentType: String = "application/json"
    ) throws -> RawHTTPClient.Response {
        var headers = [("Content-Type", contentType)]
        if let key { headers.append(("Authorization", "Bearer \(key)")) }
        return try client.request("POST", "/v1/opens", host: host, headers: headers, body: Array(body.utf8))
    }

    /// A report without its key is refused from the head: the 401 comes before a byte of the body
    /// is sent, and the connection closes (so a client that would trickle a body holds nothing). A
    /// report with the key is read whole and answered as usual.
    @Test func aReportWithoutItsKeyIsRefusedBeforeItsBody() throws {
        let server = try started(try configuration(), keys: ["rowhni": Self.key], listening: true)
        defer { server.stop() }
        let refused = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        try refused.send("POST /v1/opens HTTP/1.1\r\nHost: rowhni.com\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n")
        let answer = try refused.readResponse()
        #expect(answer.status == 401)
        #expect(answer.header("Connection") == "close")
        #expect((try? JSONParser().parse(answer.body))?["error"]?.stringValue == "unauthorized")
        #expect(refused.isClosedByPeer())
        let accepted = try RawHTTPClient(port: server.port)
        let body = #"{"url": "https://rowhni.com/addfriend?code=ABC123"}"#
        let response = try accepted.request(
            "POST", "/v1/opens", host: "rowhni.com", headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(Self.key)")],
            body: Array(body.utf8))
        #expect(response.status == 202 || response.status == 200 || response.status == 204, "\(response.status) \(response.text)")
    }

    @Test func anOpenIsRoutedLikeItsPageAndLoggedFromTheReportedURL() throws {
        let server = try started(try configuration())
        let client = server.inProcess
        let response = try open(
            client, #"{"url": "https://rowhni.com/addfriend?code=SECRET77&utm_source=whatsapp&utm_campaign=launch", "source": "universal-link"}"#)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let answer = try JSONParser().parse(response.body)
        #expect(answer["site"] == "rowhni")
        #expect(answer["rule"] == "addfriend")
        #expect(answer["appURL"] == "rowhni://addfriend?code=SECRET77")
        #expect(answer["parameters"]?["code"] == "SECRET77")
        #expect(answer.objectMembers?.map(\.key) == ["site", "rule", "appURL", "parameters"])
        // The same link by the app's custom scheme routes to the same rule and logs the same path.
        let scheme = try open(client, #"{"url": "rowhni://addfriend?code=SECRET77"}"#)
        #expect(scheme.status == 200)
        #expect(try JSONParser().parse(scheme.body)["rule"] == "addfriend")
        // A view of the page, for comparing how the code is kept.
        #expect(try client.request("GET", "/addfriend?code=SECRET77", host: "rowhni.com").status == 200)
        server.stop()
        let logged = try rows().sorted { $0.id < $1.id }
        #expect(logged.map(\.kind) == ["app_open", "app_open", "fallback"])
        let first = logged[0]
        #expect(first.method == "POST")
        #expect(first.path == "/addfriend")
        #expect(first.host == "rowhni.com")
        #expect(first.rule == "addfriend")
        #expect(first.utmSource == "whatsapp")
        #expect(first.utmCampaign == "launch")
        #expect(logged[1].path == "/addfriend")
        // The code is hashed with the views' key: the open and the view carry the same token.
        let tokens = try logged.map { row in try JSONParser().parse(try #require(row.parametersJSON))["code"]?.stringValue }
        #expect(tokens[0]?.hasPrefix("hmac:") == true)
        #expect(Set(tokens).count == 1)
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasPrefix("log.sqlite") {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + file))
            #expect(bytes.range(of: Data("SECRET77".utf8)) == nil, "SECRET77 is in \(file)")
        }
    }

    /// `null` is the same as leaving a field out: accepted for the optional ones.
    @Test func nullOptionalFieldsAreLeftOut() throws {
        let server = try started(try configuration())
        let response = try open(server.inProcess, #"{"url": "https://rowhni.com/addfriend?code=ABC123", "source": null, "openedAt": null}"#)
        server.stop()
        #expect(response.status == 200, "\(response.text)")
        #expect(try rows().count == 1)
    }

    @Test func everyRefusedReportGetsItsStatusAndAJSONReasonAndLeavesNoRow() throws {
        let server = try started(try configuration(), keys: ["rowhni": Self.key])
        let client = server.inProcess
        let valid = #"{"url": "https://rowhni.com/addfriend?code=ABC123"}"#
        var cases: [(name: String, status: Int, response: RawHTTPClient.Response)] = []
        func add(_ name: String, _ status: Int, _ response: RawHTTPClient.Response) { cases.append((name, status, response)) }
        add("no key", 401, try open(client, valid, key: nil))
        add("wrong key", 401, try open(client, valid, key: "test-ingest-key-0123456788"))
        add("malformed JSON", 400, try open(client, #"{"url": "x",}"#))
        add("no url", 400, try open(client, #"{"source": "pasteboard"}"#))
        add("unknown source", 400, try open(client, #"{"url": "https://rowhni.com/addfriend?code=ABC123", "source": "fax"}"#))
        add("repeated url", 400, try open(client, #"{"url": 1, "url": "https://rowhni.com/addfriend?code=ABC123"}"#))
        add("null url", 400, try open(client, #"{"url": null}"#))
        add(
            "repeated event field", 400,
            try client.request(
                "POST", "/v1/events", host: "rowhni.com", headers: [("Content-Type", "text/plain")],
                body: Array(#"{"event": "store", "path": "/addfriend?code=A1", "path": "/addfriend?code=A2"}"#.utf8)))
        add(
            "future openedAt", 400, try open(client, #"{"url": "https://rowhni.com/addfriend?code=A1", "openedAt": "2999-01-01T00:00:00Z"}"#)
        )
        add("wrong type", 415, try open(client, valid, contentType: "application/x-www-form-urlencoded"))
        add("other site", 422, try open(client, #"{"url": "https://forums.somethingawful.com/showthread.php?threadid=1"}"#))
        add("no rule", 422, try open(client, #"{"url": "https://rowhni.com/nothing-here"}"#))
        add("broken link", 422, try open(client, #"{"url": "https://rowhni.com/addfriend"}"#))
        add("opens off", 404, try open(client, valid, host: "forums.somethingawful.com"))
        add("GET", 405, try client.request("GET", "/v1/opens", host: "rowhni.com"))
        add("unknown host", 404, try open(client, valid, host: "unknown.example"))
        add("GET on an unknown host", 405, try client.request("GET", "/v1/events", host: "unknown.example"))
        add(
            "unknown event", 422,
            try client.request(
                "POST", "/v1/events", host: "rowhni.com", headers: [("Content-Type", "text/plain")],
                body: Array(#"{"event": "dance", "path": "/addfriend?code=A1"}"#.utf8)))
        add(
            "event of no page", 422,
            try client.request(
                "POST", "/v1/events", host: "rowhni.com", headers: [("Content-Type", "text/plain")], body: Array(#"{"event": "store", "path": "/nope"}"#.utf8)))
        server.stop()
        for (name, status, response) in cases {
            #expect(response.status == status, "\(name): \(response.status) \(response.text)")
            let answer = try? JSONParser().parse(response.body)
            #expect(answer?["error"]?.stringValue?.isEmpty == false, "\(name): \(response.text)")
            #expect(answer?["detail"]?.stringValue?.isEmpty == false, "\(name): \(response.text)")
        }
        #expect(try #require(cases.first { $0.name == "repeated url" }).response.text.contains(#"the field \"url\" appears more than once"#))
        #expect(try #require(cases.first { $0.name == "null url" }).response.text.contains(#"\"url\" is missing"#))
        let malformed = try #require(cases.first { $0.name == "malformed JSON" }).response.text
        #expect(malformed.contains("at byte 12"), "\(malformed)")
        #expect(try #require(cases.first { $0.name == "GET" }).response.header("Allow") == "POST")
        #expect(try #require(cases.first { $0.name == "other site" }).response.text.contains("not a host of site rowhni"))
        let left = try rows()
        #expect(left.isEmpty, "\(left.map(\.kind))")
    }

    /// A report's media type is read before its parameters, in any case, with spaces and tabs
    /// around it left out (RFC 9110 §8.3.1); anything else is a 415.
    @Test func mediaTypesAreReadInAnyCaseWithoutTheSpaceAroundThem() throws {
        let server = try started(try configuration(), keys: ["rowhni": Self.key])
        let client = server.inProcess
        let valid = #"{"url": "https://rowhni.com/addfriend?code=ABC123"}"#
        for type in ["application/json", "Application/JSON", " application/json ; charset=utf-8", "\tapplication/json\t", "APPLICATION/JSON;"] {
            #expect(try open(client, valid, contentType: type).status == 200, "\(type)")
        }
        for type in ["", "application/jsonx", "application/ json", "application/json5", "text/plain", "application/json\u{A0}", "xapplication/json"] {
            #expect(try open(client, valid, contentType: type).status == 415, "\(type)")
        }
        server.stop()
    }

    @Test func overTheRateLimitAnswers429WithRetryAfterAndWritesNothing() throws {
        let server = try started(try configuration(burst: 3, perSecond: 1))
        let client = server.inProcess
        let body = #"{"url": "https://rowhni.com/addfriend?code=ABC123"}"#
        let statuses = try (0..<5).map { _ in try open(client, body) }
        server.stop()
        #expect(statuses.map(\.status) == [200, 200, 200, 429, 429])
        let retryAfter = Int(statuses[3].header("Retry-After") ?? "") ?? 0
        #expect((1...2).contains(retryAfter), "Retry-After \(retryAfter)")
        #expect(try rows().count == 3)
    }

    @Test func pageEventsAreLoggedWithTheirNameAndThePagesCampaign() throws {
        let server = try started(try configuration())
        let client = server.inProcess
        for (event, type) in [("open-app", "text/plain;charset=UTF-8"), ("store", "application/json"), ("copy", "text/plain")] {
            let response = try client.request(
                "POST", "/v1/events", host: "rowhni.com", headers: [("Content-Type", type)],
                body: Array(#"{"event": "\#(event)", "path": "/addfriend?code=ABC123&utm_campaign=spring"}"#.utf8))
            #expect(response.status == 204, "\(event): \(response.text)")
        }
        let wrongType = try client.request(
            "POST", "/v1/events", host: "rowhni.com", headers: [("Content-Type", "multipart/form-data")], body: Array("{}".utf8))
        #expect(wrongType.status == 415)
        server.stop()
        let logged = try rows().sorted { $0.id < $1.id }
        #expect(logged.map(\.kind) == ["event", "event", "event"])
        #expect(logged.map(\.event) == ["open-app", "store", "copy"])
        #expect(logged.allSatisfy { $0.rule == "addfriend" && $0.utmCampaign == "spring" && $0.path == "/addfriend" })
    }

    /// The HTTP layer's limits on a report: a body over `server.limits.requestBodyBytes` is refused
    /// with a JSON 413 before the endpoint sees it, and a body that stalls is cut by the connection
    /// timeout; neither leaves a row.
    @Test func aBodyOverTheLimitIs413AndABodyThatStallsIsCutByTheConnectionTimeout() throws {
        let server = try started(try configuration(timeoutSeconds: 1), listening: true)
        let big = "{\"url\": \"" + String(repeating: "a", count: 70_000) + "\"}"
        let tooLarge = try RawHTTPClient(port: server.port).request(
            "POST", "/v1/opens", host: "rowhni.com", headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(Self.key)")],
            body: Array(big.utf8))
        #expect(tooLarge.status == 413, "\(tooLarge.text)")
        let answer = try? JSONParser().parse(tooLarge.body)
        #expect(answer?["error"]?.stringValue?.isEmpty == false, "\(tooLarge.text)")
        #expect(answer?["detail"]?.stringValue?.isEmpty == false, "\(tooLarge.text)")
        // The client would wait 30 s: the server's one-second timeout closes the connection first.
        let client = try RawHTTPClient(port: server.port, timeoutSeconds: 30)
        try client.send(
            "POST /v1/opens HTTP/1.1\r\nHost: rowhni.com\r\nAuthorization: Bearer \(Self.key)\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"url\":"
        )
        // Whichever comes first cuts it: the connection timeout closes it without a word, the body
        // deadline (server.limits.bodyBytesPerSecond after its grace) answers 408 and closes it.
        if let answer = try? client.readResponse() { #expect(answer.status == 408, "\(answer.text)") }
        #expect(client.isClosedByPeer(), "the stalled body was not cut by the server")
        server.stop()
        #expect(try rows().isEmpty)
    }

    @Test func viewsClicksAndOpensOfOneCampaignAddUpInTheFunnel() throws {
        let server = try started(try configuration())
        let client = server.inProcess
        for code in ["K1AAAA", "K2BBBB", "K3CCCC"] {
            #expect(try client.request("GET", "/addfriend?code=\(code)&utm_campaign=spring", host: "rowhni.com").status == 200)
        }
        #expect(try client.request("GET", "/addfriend?code=K4DDDD&utm_campaign=autumn", host: "rowhni.com").status == 200)
        for event in ["open-app", "open-app", "store", "copy"] {
            let response = try client.request(
                "POST", "/v1/events", host: "rowhni.com", headers: [("Content-Type", "text/plain")],
                body: Array(#"{"event": "\#(event)", "path": "/addfriend?code=K1AAAA&utm_campaign=spring"}"#.utf8))
            #expect(response.status == 204)
        }
        // K1 was viewed before it was opened in the app; K9 never was.
        for code in ["K1AAAA", "K9ZZZZ"] {
            #expect(try open(client, #"{"url": "https://rowhni.com/addfriend?code=\#(code)&utm_campaign=spring"}"#).status == 200)
        }
        server.stop()
        let output = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["stats", "--funnel", "--by", "utm_campaign", "--db", folder.path + "/log.sqlite", "--format", "json"])
        #expect(output.status == 0, "\(output.error)")
        let groups = try JSONParser().parse(output.output).arrayElements ?? []
        let spring = try #require(groups.first { $0["utm_campaign"] == "spring" }, "\(output.output)")
        #expect(spring["views"] == 3)
        #expect(spring["open_clicks"] == 2)
        #expect(spring["store_clicks"] == 1)
        #expect(spring["copies"] == 1)
        #expect(spring["app_opens"] == 2)
        #expect(spring["opens_after_view"] == 1)
        let autumn = try #require(groups.first { $0["utm_campaign"] == "autumn" })
        #expect(autumn["views"] == 1)
        #expect(autumn["opens_after_view"] == 0)
    }

    @Test func tenThousandConcurrentOpensGiveExactlyTenThousandRows() throws {
        let server = try started(try configuration(burst: 1_000_000, perSecond: 1_000_000))
        let counter = SharedCounter()
        ParallelThreads.run(8) { index in
            let client = server.inProcess
            for request in 0..<1250 {
                let body = #"{"url": "https://rowhni.com/addfriend?code=C\#(index)X\#(request)&utm_campaign=load"}"#
                if (try? open(client, body))?.status == 200 { _ = counter.increment() }
            }
        }
        let status = try #require(server.stop())
        #expect(counter.value == 10_000)
        #expect(status.dropped == 0)
        let reader = try LogReader(databasePath: folder.path + "/log.sqlite")
        #expect(try reader.count(LogFilter(kind: "app_open", utmCampaign: "load")) == 10_000)
        #expect(try reader.count(LogFilter()) == 10_000)
    }
}
