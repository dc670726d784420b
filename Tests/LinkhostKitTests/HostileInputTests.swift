import Foundation
import LinkhostKit
import TestSupport
import Testing

/// Requests built to break out of the page: nothing from the request may appear raw.
@Suite("Hostile input is never reflected raw", .ownThread)
struct HostileInputTests {
    let shared: SharedServer

    init() throws { shared = try SharedServer(unknownHost: .site("awful")) }

    static let payloads = [
        "%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "\"><script>alert(1)</script>",
        "javascript:alert(1)",
        "%27%20onmouseover%3D%27alert(1)",
        "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
        "TEST123%0D%0ASet-Cookie:%20evil=1",
        "%EF%BC%B4%EF%BC%A5%EF%BC%B3%EF%BC%B4",  // full-width TEST
        "TE%00ST123",
        "%E2%80%AETEST123",  // right-to-left override
        "%C0%BCscript%C0%BE",  // overlong UTF-8 for < and >
        "%25%32%32%25%33%45",  // double-encoded ">
        String(repeating: "A", count: 6000),
    ]

    /// Markup a payload would produce if it escaped; the page's own `<script src=…>` is not one.
    static let dangerous = ["<script>", "alert(1)</script>", "onerror=", "onmouseover=", "\"><script", "\"><img", "'><", "<img"]

    private func assertNothingRaw(_ response: RawHTTPClient.Response, _ context: String) {
        #expect([200, 400, 404].contains(response.status), "\(context)")
        #expect(response.header("Set-Cookie") == nil, "\(context)")
        let lowered = response.text.lowercased()
        for needle in Self.dangerous {
            #expect(!lowered.contains(needle.lowercased()), "\(context) reflected \(needle)")
        }
        #expect(response.text.components(separatedBy: "<script").count == 2, "\(context): only the page's own script tag")
        let page = HTMLProbe(response.text)
        for id in ["open-app", "get-app", "continue-web", "copy-link"] {
            guard let href = page.attribute("href", ofElementWithID: id) ?? page.attribute("data-copy", ofElementWithID: id) else { continue }
            #expect(["rowhni://", "awful://", "https://"].contains { href.hasPrefix($0) }, "\(context): \(id) → \(href)")
            #expect(
                !href.contains(" ") && !href.contains("\"") && !href.contains("<") && !href.contains("\r") && !href.contains("\n"),
                "\(context): \(id) → \(href)")
        }
    }

    @Test(arguments: payloads)
    func inAnInviteCode(payload: String) throws {
        let target =
            "/addfriend?code="
            + payload.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "<", with: "%3C")
            .replacingOccurrences(of: ">", with: "%3E")
        let response = try shared.get(target, host: "rowhni.com")
        #expect(response.status == 400)
        assertNothingRaw(response, target)
    }

    @Test(arguments: payloads)
    func inAnIgnoredParameterThatReachesTheWebLink(payload: String) throws {
        let encoded = payload.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "<", with: "%3C")
            .replacingOccurrences(of: ">", with: "%3E")
        let target = "/showthread.php?threadid=456&x=\(encoded)&noseen=\(encoded)"
        let response = try shared.get(target, host: ProductTables.awful)
        #expect(response.status == 200)
        assertNothingRaw(response, target)
        // A bad pass-through value is dropped, not passed on.
        #expect(HTMLProbe(response.text).attribute("href", ofElementWithID: "open-app").map(ViewTokens.removed) == "awful://threads/456")
    }

    /// A request line a client library would never send, so it goes over a socket as written.
    @Test func rawQuotesAndAnglesInTheRequestLineStayInsideTheWebLink() throws {
        let listening = try SharedServer(unknownHost: .site("awful"), listening: true)
        let client = try RawHTTPClient(port: listening.port)
        try client.send("GET /showthread.php?threadid=456&q=\"><script>alert(1)</script>' HTTP/1.1\r\nHost: forums.somethingawful.com\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 200 || response.status == 400)
        if response.status == 200 { assertNothingRaw(response, "raw request line") }
    }

    @Test func aHostileHostHeaderNeverBecomesALinkTarget() throws {
        // The default site answers unknown hosts; its absolute links use its own primary host.
        let response = try shared.get("/showthread.php?threadid=456", host: "evil.example\"><script>")
        #expect(response.status == 200)
        let page = HTMLProbe(response.text)
        #expect(page.meta("og:url") == "https://forums.somethingawful.com/showthread.php?threadid=456")
        #expect(!response.text.contains("evil.example"))
    }

    @Test(arguments: ["/%3Cscript%3Ealert(1)%3C/script%3E", "/\"><img src=x onerror=alert(1)>", "/showthread.php/%22%3E"])
    func inThePath(path: String) throws {
        let listening = try SharedServer(unknownHost: .site("awful"), listening: true)
        let client = try RawHTTPClient(port: listening.port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: rowhni.com\r\n\r\n")
        let response = try client.readResponse()
        assertNothingRaw(response, path)
    }

    @Test func percentEncodedPathTricksDoNotReachARule() throws {
        // AASA compares the path as sent (percentEncoded defaults to true), and so does the router:
        // an encoded letter is not the letter, for the app and for the page alike.
        #expect(try shared.get("/addfri%65nd?code=TEST123", host: "rowhni.com").status == 404)
        #expect(try shared.get("//addfriend?code=TEST123", host: "rowhni.com").status == 200)
        #expect(try shared.get("/addfriend/?code=TEST123", host: "rowhni.com").status == 200)
        #expect(try shared.get("/ADDFRIEND?code=TEST123", host: "rowhni.com").status == 404)
    }
}
