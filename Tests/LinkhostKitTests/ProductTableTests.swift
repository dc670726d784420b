import Foundation
import LinkhostKit
import TestSupport
import Testing

/// One row of a link table in the product note: the web link, the rule that serves it, the app
/// URL its page must carry, and the page heading in English and German.
struct TableRow: Sendable, CustomTestStringConvertible {
    let host: String
    let target: String
    let rule: String
    let appURL: String
    let english: String
    let german: String

    var testDescription: String { "\(host)\(target)" }
}

enum ProductTables {
    static let awful = "forums.somethingawful.com"
    static let rows: [TableRow] = [
        TableRow(host: awful, target: "/forumdisplay.php?forumid=123", rule: "forum", appURL: "awful://forums/123", english: "Forum 123", german: "Forum 123"),
        TableRow(
            host: awful, target: "/showthread.php?threadid=456", rule: "thread", appURL: "awful://threads/456", english: "Thread 456", german: "Thread 456"),
        TableRow(
            host: awful, target: "/showthread.php?threadid=456&pagenumber=2", rule: "threadPage", appURL: "awful://threads/456/pages/2",
            english: "Thread 456, page 2", german: "Thread 456, Seite 2"),
        TableRow(
            host: awful, target: "/showthread.php?threadid=456&pagenumber=2&userid=7", rule: "threadPageSingleUser",
            appURL: "awful://threads/456/pages/2?userid=7", english: "Thread 456, page 2, posts by user 7", german: "Thread 456, Seite 2, Beiträge von Nutzer 7"
        ),
        TableRow(
            host: awful, target: "/showthread.php?threadid=456&goto=lastpost", rule: "threadLastPage", appURL: "awful://threads/456/pages/last",
            english: "Thread 456, last page", german: "Thread 456, letzte Seite"),
        TableRow(
            host: awful, target: "/showthread.php?threadid=456&goto=newpost", rule: "threadUnread", appURL: "awful://threads/456/pages/unread",
            english: "Thread 456, first unread post", german: "Thread 456, erster ungelesener Beitrag"),
        TableRow(
            host: awful, target: "/showthread.php?goto=post&postid=789", rule: "post", appURL: "awful://posts/789", english: "Post 789", german: "Beitrag 789"),
        TableRow(
            host: awful, target: "/member.php?action=getinfo&userid=123", rule: "profile", appURL: "awful://users/123", english: "Profile of user 123",
            german: "Profil von Nutzer 123"),
        TableRow(
            host: awful, target: "/member.php?userid=123", rule: "profileShort", appURL: "awful://users/123", english: "Profile of user 123",
            german: "Profil von Nutzer 123"),
        TableRow(host: awful, target: "/banlist.php", rule: "lepersColony", appURL: "awful://banlist", english: "Leper's Colony", german: "Leper's Colony"),
        TableRow(
            host: awful, target: "/banlist.php?userid=123", rule: "rapSheet", appURL: "awful://banlist/123", english: "Rap sheet of user 123",
            german: "Strafregister von Nutzer 123"),
        // noseen=1 passes through to the app URL.
        TableRow(
            host: awful, target: "/showthread.php?threadid=456&pagenumber=2&noseen=1", rule: "threadPage", appURL: "awful://threads/456/pages/2?noseen=1",
            english: "Thread 456, page 2", german: "Thread 456, Seite 2"),
        TableRow(
            host: awful, target: "/showthread.php?goto=post&postid=789&noseen=1", rule: "post", appURL: "awful://posts/789?noseen=1", english: "Post 789",
            german: "Beitrag 789"),
        // The archives host is the same site.
        TableRow(
            host: "archives.somethingawful.com", target: "/showthread.php?threadid=456", rule: "thread", appURL: "awful://threads/456", english: "Thread 456",
            german: "Thread 456"),
        TableRow(
            host: "rowhni.com", target: "/addfriend?code=TEST123", rule: "addfriend", appURL: "rowhni://addfriend?code=TEST123", english: "Friend invitation",
            german: "Freundschaftseinladung"),
        TableRow(
            host: "rowhni.com", target: "/joingroup?code=ABC123", rule: "joingroup", appURL: "rowhni://joingroup?code=ABC123", english: "Group invitation",
            german: "Einladung zur Gruppe"),
        // UTM and from=qrcode are for the log, not the app.
        TableRow(
            host: "rowhni.com", target: "/addfriend?code=ABC123&from=qrcode&utm_source=whatsapp&utm_campaign=launch", rule: "addfriend",
            appURL: "rowhni://addfriend?code=ABC123", english: "Friend invitation", german: "Freundschaftseinladung"),
        TableRow(
            host: "rowhni.com", target: "/joingroup?code=8F3A2B1C", rule: "joingroup", appURL: "rowhni://joingroup?code=8F3A2B1C", english: "Group invitation",
            german: "Einladung zur Gruppe"),
    ]
}

/// A server on the shipped config for a suite's tests, answering in-process; `listening` starts its
/// listener too, for the few tests of what only the socket shows (`port`).
final class SharedServer: Sendable {
    let server: LinkhostServer

    init(unknownHost: UnknownHostPolicy = .notFound, listening: Bool = false) throws {
        server = try LinkhostServer(configuration: try shippedConfiguration(unknownHost: unknownHost))
        if listening { try server.start() }
    }

    deinit { server.stop() }

    var port: Int { server.port }

    func get(_ target: String, host: String, language: String? = nil, headers: [(String, String)] = []) throws -> RawHTTPClient.Response {
        try request("GET", target, host: host, language: language, headers: headers)
    }

    func request(_ method: String, _ target: String, host: String, language: String? = nil, headers: [(String, String)] = []) throws -> RawHTTPClient.Response {
        var all = headers
        if let language { all.append(("Accept-Language", language)) }
        return try server.inProcess.request(method, target, host: host, headers: all)
    }
}

@Suite("Every row of the product tables", .ownThread)
struct ProductTableTests {
    let shared: SharedServer

    init() throws { shared = try SharedServer() }

    @Test(arguments: ProductTables.rows, ["en", "de"])
    func theFallbackPageCarriesExactlyTheRowsAppURL(row: TableRow, language: String) throws {
        let response = try shared.get(row.target, host: row.host, language: language)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(response.header("Content-Language") == language)
        let page = HTMLProbe(response.text)
        // The row's app URL, carrying this view's token (one token, wherever the page hands off).
        let token = try #require(ViewTokens.all(in: response.text).first)
        #expect(Set(ViewTokens.all(in: response.text)) == [token])
        #expect(page.attribute("href", ofElementWithID: "open-app") == ViewTokens.adding(token, to: row.appURL))
        #expect(response.header("Cache-Control") == "private, no-store")
        #expect(response.text.contains("data-rule=\"\(row.rule)\""))
        #expect(page.text(ofFirst: "h1") == (language == "de" ? row.german : row.english))
        #expect(response.text.contains("<html lang=\"\(language)\">"))
        // Exactly one custom-scheme URL on the page, and it is the row's.
        let scheme = row.appURL.prefix { $0 != ":" }
        let occurrences = response.text.components(separatedBy: "\"\(scheme)://").count - 1
        #expect(occurrences == 1)
    }

    @Test(arguments: ProductTables.rows)
    func thePageHasTheStoreBannerPreviewsAndSecurityHeaders(row: TableRow) throws {
        let response = try shared.get(row.target, host: row.host)
        let page = HTMLProbe(response.text)
        let appName = row.host == "rowhni.com" ? "Rowhni" : "Awful"
        #expect(page.text(ofFirst: "title")?.hasSuffix("· \(appName)") == true)
        #expect(page.attribute("href", ofElementWithID: "get-app")?.hasPrefix("https://apps.apple.com/") == true)
        #expect(page.meta("og:title") != nil)
        #expect(page.meta("og:url")?.hasPrefix("https://\(row.host)/") == true)
        #expect(page.meta("og:image")?.hasPrefix("https://\(row.host)/static/og/") == true)
        #expect(page.meta("twitter:card") == "summary")
        if row.host == "rowhni.com" {
            // No App Store id in the shipped config: no Smart App Banner, but a store link.
            #expect(page.meta("apple-itunes-app") == nil)
            let code = try #require(row.appURL.split(separator: "=").last)
            #expect(page.text(ofFirst: "code") == String(code))
            let copied = try #require(page.attribute("data-copy", ofElementWithID: "copy-link"))
            #expect(ViewTokens.removed(from: copied) == "https://rowhni.com\(row.target.split(separator: "&").first!)")
            #expect(ViewTokens.all(in: copied).count == 1, "the copied link carries the view's token: \(copied)")
            #expect(page.attribute("href", ofElementWithID: "continue-web") == nil)
        } else {
            let banner = try #require(page.meta("apple-itunes-app"))
            #expect(banner.hasPrefix("app-id=567936609, app-argument=https://\(row.host)/"))
            #expect(ViewTokens.all(in: banner).count == 1, "the banner's argument carries the view's token: \(banner)")
            #expect(page.attribute("href", ofElementWithID: "continue-web") == "https://forums.somethingawful.com\(row.target)")
        }
        #expect(response.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(response.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Referrer-Policy") == "no-referrer")
        #expect(response.header("X-Frame-Options") == "DENY")
        // Pages differ by language and by device (Android, computer, everyone else).
        #expect(response.header("Vary") == "Accept-Language, User-Agent")
        #expect(!page.tagNames.contains("style"))
        #expect(!response.text.contains("<script>"))
        #expect(!response.text.contains("style=\""))
    }

    @Test func everyRulesExamplesRouteToThatRule() throws {
        let configuration = try shippedConfiguration()
        var checked = 0
        for site in configuration.sites {
            for rule in site.router.rules {
                #expect(!rule.examples.isEmpty, "rule \(rule.name) has no examples")
                for example in rule.examples {
                    let response = try shared.get(example, host: site.primaryHost)
                    #expect(response.status == 200, "\(example)")
                    #expect(response.text.contains("data-rule=\"\(rule.name)\""), "\(example) → \(rule.name)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 16)
    }

    /// HEAD goes through the HTTP layer, which sends the GET's length and no body.
    @Test func headOfAPageHasNoBodyButTheLength() throws {
        let listening = try SharedServer(listening: true)
        let get = try listening.get("/addfriend?code=TEST123", host: "rowhni.com")
        let head = try RawHTTPClient(port: listening.port).request("HEAD", "/addfriend?code=TEST123", host: "rowhni.com")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == "\(get.body.count)")
    }
}
