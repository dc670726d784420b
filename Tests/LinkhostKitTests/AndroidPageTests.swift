import Foundation
import HTTPServing
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// Fallback pages by device: Android visitors get Google Play and an `intent://` link, iPhones and
/// everyone else the App Store page as before, computers a QR code of the link.
@Suite("Fallback pages for Android and desktop")
struct AndroidPageTests {
    let server: LinkhostServer
    static let playURL = "https://play.google.com/store/apps/details?id=com.yaman.rowhni"
    /// The policy every page carries, unchanged by the Android and desktop variants (no inline
    /// script or style: the QR code is SVG markup with presentation attributes only).
    static let strictPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    init() throws {
        server = try LinkhostServer(configuration: try AndroidFixture.configuration())
    }

    private func get(_ target: String, host: String = "rowhni.com", userAgent: String?, language: String = "de") throws -> RawHTTPClient.Response {
        var headers = [("Accept-Language", language)]
        if let userAgent { headers.append(("User-Agent", userAgent)) }
        return try server.inProcess.request("GET", target, host: host, headers: headers)
    }

    /// The parts of an `intent://` URL as Chrome reads them (the fields after `#Intent;`, values
    /// percent-decoded), and the URL it opens: `scheme://` + what comes before the fragment.
    static func intent(_ href: String) throws -> (url: String, fields: [String: String], last: String) {
        try #require(href.hasPrefix("intent://"))
        let parts = href.dropFirst("intent://".count).components(separatedBy: "#Intent;")
        try #require(parts.count == 2, "one #Intent; in \(href)")
        let fields = parts[1].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var values: [String: String] = [:]
        for field in fields.dropLast() {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            try #require(pair.count == 2, "field \(field)")
            // A value that is not valid percent-encoding is left out, and the expectations on it fail.
            values[pair[0]] = pair[1].removingPercentEncoding
        }
        return ("\(values["scheme"] ?? "?")://\(parts[0])", values, fields.last ?? "")
    }

    @Test(arguments: [(UserAgents.android, "de"), (UserAgents.instagramOnAndroid, "en")])
    func androidGetsGooglePlayAndAnIntentLinkThatOpensTheLinkInTheApp(userAgent: String, language: String) throws {
        let response = try get("/addfriend?code=ABC123&utm_source=whatsapp", userAgent: userAgent, language: language)
        #expect(response.status == 200)
        let page = HTMLProbe(response.text)
        // Google Play hands the app its install referrer once after installing: the link's campaign
        // and the view's token.
        let token = try #require(ViewTokens.all(in: response.text).first)
        let store = Self.playURL + "&referrer=utm_source%3Dwhatsapp%26lh_view%3D" + token
        #expect(page.attribute("href", ofElementWithID: "get-app") == store)
        #expect(page.attribute("data-store", ofElementWithID: "get-app") == "android")
        #expect(response.text.contains(language == "de" ? "Lade die App bei Google Play" : "Get it on Google Play"))
        #expect(!response.text.contains("apps.apple.com/de/search"), "no App Store button for Android")
        let href = try #require(page.attribute("href", ofElementWithID: "open-app"))
        let intent = try Self.intent(href)
        // The canonical link (no campaign) with the view's token, handled by the app through its
        // verified App Links.
        #expect(intent.url == "https://rowhni.com/addfriend?code=ABC123&lh_view=\(token)")
        #expect(ViewTokens.removed(from: intent.url) == page.meta("og:url"))
        #expect(intent.fields["scheme"] == "https")
        #expect(intent.fields["package"] == AndroidFixture.package)
        #expect(intent.fields["S.browser_fallback_url"] == store)
        #expect(intent.last == "end")
        // Encoded so its own '?', '=' and '&' cannot end the field.
        #expect(href.contains("S.browser_fallback_url=https%3A%2F%2Fplay.google.com%2Fstore%2Fapps%2Fdetails%3Fid%3Dcom.yaman.rowhni%26referrer%3D"))
        #expect(href.hasSuffix("lh_view%253D\(token);end"))
        #expect(page.openingTag(id: "qr-code") == nil)
        #expect(response.header("Vary") == "Accept-Language, User-Agent")
        #expect(response.header("Content-Security-Policy") == Self.strictPolicy)
    }

    @Test func aConfiguredPlayURLIsUsedForTheButtonAndTheFallback() throws {
        let custom = "https://play.google.com/store/apps/details?id=com.yaman.rowhni&hl=de&referrer=utm_source%3Dlinkhost"
        let server = try LinkhostServer(configuration: try AndroidFixture.configuration(block: AndroidFixture.block(playURL: custom)))
        defer { server.stop() }
        let response = try server.inProcess.request(
            "GET", "/joingroup?code=TEST123", host: "rowhni.com", headers: [("User-Agent", UserAgents.android)])
        let page = HTMLProbe(response.text)
        #expect(page.attribute("href", ofElementWithID: "get-app") == custom)
        let intent = try Self.intent(try #require(page.attribute("href", ofElementWithID: "open-app")))
        // The configured URL names a referrer of its own, which is kept as it is.
        #expect(intent.fields["S.browser_fallback_url"] == custom)
        #expect(ViewTokens.removed(from: intent.url) == "https://rowhni.com/joingroup?code=TEST123")
    }

    @Test(arguments: ["/addfriend", "/nothing-here"])
    func brokenAndUnknownLinksOpenTheAppThroughItsSchemeOnAndroid(target: String) throws {
        let response = try get(target, userAgent: UserAgents.android)
        #expect(response.status == (target == "/addfriend" ? 400 : 404))
        let page = HTMLProbe(response.text)
        let intent = try Self.intent(try #require(page.attribute("href", ofElementWithID: "open-app")))
        #expect(intent.url == "rowhni://")
        #expect(intent.fields["package"] == AndroidFixture.package)
        #expect(intent.fields["S.browser_fallback_url"] == Self.playURL)
        #expect(page.attribute("href", ofElementWithID: "get-app") == Self.playURL)
    }

    @Test(arguments: [UserAgents.iPhone, UserAgents.whatsAppPreview, nil])
    func iPhonesAndEveryoneElseGetTheAppStorePageUnchanged(userAgent: String?) throws {
        let response = try get("/addfriend?code=ABC123", userAgent: userAgent)
        let page = HTMLProbe(response.text)
        let open = try #require(page.attribute("href", ofElementWithID: "open-app"))
        #expect(ViewTokens.removed(from: open) == "rowhni://addfriend?code=ABC123")
        // A link preview is no person who could take the page to the app: no token for it.
        #expect(ViewTokens.all(in: open).isEmpty == (userAgent == UserAgents.whatsAppPreview))
        #expect(page.attribute("href", ofElementWithID: "get-app") == "https://apps.apple.com/de/search?term=Rowhni")
        #expect(page.attribute("data-store", ofElementWithID: "get-app") == "ios")
        #expect(!response.text.contains("intent://") && !response.text.contains("play.google.com"))
        #expect(page.openingTag(id: "qr-code") == nil)
        #expect(!response.text.contains("<svg"))
    }

    /// An Android visitor of a site whose app has no Android block: no App Store button and no
    /// custom-scheme button (neither does anything on Android), but which devices the app is for and
    /// the link to copy and send there, in both languages; the in-app browsers on Android alike.
    @Test(arguments: [UserAgents.android, UserAgents.instagramOnAndroid])
    func aSiteWithoutAnAndroidAppTellsAndroidWhoTheAppIsFor(userAgent: String) throws {
        let response = try get("/showthread.php?threadid=456", host: "forums.somethingawful.com", userAgent: userAgent, language: "en")
        let page = HTMLProbe(response.text)
        #expect(page.openingTag(id: "open-app") == nil && page.openingTag(id: "get-app") == nil)
        #expect(!response.text.contains("apps.apple.com") && !response.text.contains("awful://") && !response.text.contains("intent://"))
        #expect(response.text.contains("Awful is an app for iPhone and iPad."), "\(response.text)")
        let copied = try #require(page.attribute("data-copy", ofElementWithID: "copy-link"))
        #expect(ViewTokens.removed(from: copied) == "https://forums.somethingawful.com/showthread.php?threadid=456")
        let german = try get("/showthread.php?threadid=456", host: "forums.somethingawful.com", userAgent: userAgent, language: "de")
        #expect(german.text.contains("Awful ist eine App für iPhone und iPad."))
        #expect(HTMLProbe(german.text).openingTag(id: "get-app") == nil)
        // An iPhone on the same link still gets the App Store page.
        let iPhone = HTMLProbe(try get("/showthread.php?threadid=456", host: "forums.somethingawful.com", userAgent: UserAgents.iPhone).text)
        #expect(iPhone.attribute("href", ofElementWithID: "get-app") == "https://apps.apple.com/app/id567936609")
    }

    /// On a page with a code box (an invitation) the box's button is the only copy button.
    @Test func anInvitationForAndroidWithoutAnAndroidAppHasOneCopyButton() throws {
        let shipped = try LinkhostServer(configuration: try shippedConfiguration())
        defer { shipped.stop() }
        let page = try shipped.inProcess.request("GET", "/addfriend?code=ABC123", host: "rowhni.com", headers: [("User-Agent", UserAgents.android)])
        #expect(page.text.components(separatedBy: "id=\"copy-link\"").count == 2, "\(page.text)")
        #expect(page.text.contains("class=\"elsewhere\"") && !page.text.contains("apps.apple.com"))
    }

    /// The page cache keeps the variants apart: the same link alternately from each device.
    @Test func cachedPagesNeverCrossDevices() throws {
        for _ in 0..<3 {
            for (agent, store) in [(UserAgents.android, "android"), (UserAgents.iPhone, "ios"), (UserAgents.desktopChrome, "ios")] {
                let page = HTMLProbe(try get("/addfriend?code=CACHE1", userAgent: agent).text)
                #expect(page.attribute("data-store", ofElementWithID: "get-app") == store)
                #expect((page.openingTag(id: "qr-code") != nil) == (agent == UserAgents.desktopChrome))
            }
        }
    }

    // MARK: desktop

    @Test(arguments: [UserAgents.desktopChrome, UserAgents.desktopSafari])
    func aComputerGetsTheStandardPageAndAQRCodeOfTheLink(userAgent: String) throws {
        let response = try get("/addfriend?code=ABC123", userAgent: userAgent, language: "en")
        let page = HTMLProbe(response.text)
        // No custom-scheme button: a computer has no app to open. The code comes first, and the
        // hint says to scan it rather than to come back after installing.
        #expect(page.openingTag(id: "open-app") == nil)
        #expect(!response.text.contains("rowhni://"))
        #expect(page.attribute("href", ofElementWithID: "get-app") == "https://apps.apple.com/de/search?term=Rowhni")
        #expect(page.openingTag(id: "qr-code") != nil)
        let code = try #require(response.text.range(of: "id=\"qr-code\""))
        let actions = try #require(response.text.range(of: "<nav class=\"actions\">"))
        #expect(code.lowerBound < actions.lowerBound)
        #expect(response.text.contains("scan the code with your phone&#39;s camera") || response.text.contains("scan the code with your phone's camera"))
        #expect(!response.text.contains("then open this link again"))
        #expect(response.text.components(separatedBy: "<svg xmlns=\"http://www.w3.org/2000/svg\"").count == 2)
        #expect(response.text.contains("<figcaption>Scan the code with your phone to open this link in Rowhni there.</figcaption>"))
        let german = try get("/addfriend?code=ABC123", userAgent: userAgent, language: "de")
        #expect(german.text.contains("<figcaption>Scanne den Code mit deinem Handy, um diesen Link dort in Rowhni zu öffnen.</figcaption>"))
        #expect(german.text.contains("Scanne den Code mit der Kamera deines Handys"))
        #expect(!german.text.contains("öffne diesen Link danach erneut"))
        #expect(response.header("Content-Security-Policy") == Self.strictPolicy)
    }

    @Test func brokenLinksGetNoQRCode() throws {
        let response = try get("/addfriend", userAgent: UserAgents.desktopChrome)
        #expect(response.status == 400)
        #expect(!response.text.contains("<svg"))
        #expect(HTMLProbe(response.text).openingTag(id: "open-app") == nil, "no custom-scheme button on a computer")
    }

    /// Nothing from the request reaches the SVG: a hostile campaign value is percent-encoded into
    /// the link inside the code, and the SVG is numbers and fixed markup.
    @Test func aHostileCampaignNeverReachesTheMarkup() throws {
        let response = try get("/addfriend?code=ABC123&utm_campaign=%22%3E%3Cscript%3Ealert(1)%3C/script%3E", userAgent: UserAgents.desktopChrome)
        #expect(response.status == 200)
        #expect(!response.text.contains("<script>alert"))
        let start = try #require(response.text.range(of: "<svg"))
        let end = try #require(response.text.range(of: "</svg>"))
        let svg = response.text[start.lowerBound..<end.upperBound]
        #expect(svg.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || " <>/=\"#:.-".contains($0)) }, "\(svg.prefix(300))")
    }
}
