import LinkLog
import LinkLogSQLite
import Testing

@Suite("Client classifier")
struct ClientClassifierTests {
    static let cases: [(String?, ClientClass)] = [
        ("AASA-Bot/1.0.0", .aasaBot),
        ("swcd (unknown version) CFNetwork/1494.0.7 Darwin/23.4.0", .appleCFNetwork),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1", .ios),
        ("Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1", .ios),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", .android),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", .desktop),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0", .desktop),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15", .desktop),
        ("WhatsApp/2.24.8.78 A", .linkPreview),
        ("WhatsApp/2.23.20.0 i", .linkPreview),
        // Apple Messages' link preview fetcher.
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
            .linkPreview
        ),
        ("Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", .linkPreview),
        ("TelegramBot (like TwitterBot)", .linkPreview),
        ("Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", .linkPreview),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 327.0.3.22.91 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 589612196)",
            .inAppBrowser
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/458.0.0.40.108;FBBV/590000000]",
            .inAppBrowser
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/311.0.622470953 Mobile/15E148 Safari/604.1",
            .inAppBrowser
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0 Mobile Safari/537.36",
            .inAppBrowser
        ),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.4.0", .inAppBrowser),
        ("curl/8.5.0", .bot),
        ("Wget/1.21.4", .bot),
        ("python-requests/2.31.0", .bot),
        ("Go-http-client/1.1", .bot),
        (
            "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            .bot
        ),
        ("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", .bot),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
            .bot
        ),
        ("SomeCrawler/3.0", .bot),
        ("", .unknown),
        (nil, .unknown),
        ("Mozilla/5.0", .unknown),
    ]

    /// In-app browsers by app, from strings these apps send (iOS and Android).
    static let inAppCases: [(String, String)] = [
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 327.0.3.22.91 (iPhone15,2; iOS 17_4; en_US; en; scale=3.00; 1179x2556; 589612196)",
            "instagram"
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/127.0.6533.103 Mobile Safari/537.36 Instagram 343.0.0.33.101 Android (34/14; 420dpi; 1080x2400; Google/google; Pixel 8; shiba; shiba; en_US; 626264000)",
            "instagram"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/458.0.0.40.108;FBBV/590000000]",
            "facebook"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/MessengerForiOS;FBAV/450.0.0.39.109;FBBV/583000000]",
            "messenger"
        ),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.4.0", "line"),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/311.0.622470953 Mobile/15E148 Safari/604.1",
            "google"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003133) NetType/WIFI Language/zh_CN",
            "wechat"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 LinkedInApp/9.29.8010",
            "linkedin"
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0 Mobile Safari/537.36 trill_330505 BytedanceWebview/d8a21c6",
            "tiktok"
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/123.0 Mobile Safari/537.36",
            "android-webview"
        ),
    ]

    @Test("an in-app browser is named by its app, Messenger apart from Facebook, a named app before a bare WebView")
    func inAppBrowsersAreNamed() {
        for (userAgent, app) in Self.inAppCases {
            #expect(ClientClassifier.inAppBrowser(userAgent) == app, "\(userAgent)")
            #expect(ClientClassifier.classify(userAgent) == .inAppBrowser, "\(userAgent)")
            // Case does not matter, as for the class.
            #expect(ClientClassifier.inAppBrowser(userAgent.uppercased()) == app, "\(userAgent)")
        }
    }

    @Test("a browser is named as an in-app one exactly when it is classified as one")
    func inAppNamesAgreeWithTheClass() {
        // Link previews name an app too (WhatsApp, Facebook's fetcher), but are not browsers.
        for (userAgent, clientClass) in Self.cases {
            #expect((ClientClassifier.inAppBrowser(userAgent) != nil) == (clientClass == .inAppBrowser), "\(String(describing: userAgent))")
        }
        #expect(ClientClassifier.inAppBrowser("WhatsApp/2.24.8.78 A") == nil)
    }

    @Test("user agents land in their class", arguments: cases)
    func classify(userAgent: String?, expected: ClientClass) {
        #expect(ClientClassifier.classify(userAgent) == expected)
    }

    @Test("class names are the stored strings")
    func rawValues() {
        #expect(
            ClientClass.allCases.map(\.rawValue) == [
                "aasa-bot", "apple-cfnetwork", "link-preview", "in-app-browser", "ios", "android", "desktop", "bot", "unknown",
            ])
    }
}

@Suite("Client class memory")
struct ClientClassCacheTests {
    @Test func remembersWhatTheClassifierDecidesAndStaysBounded() {
        let cache = ClientClassCache(capacity: 4)
        let agents = [
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1",
            "AASA-Bot/1.0.0", "curl/8.5.0", "WhatsApp/2.23.20.0 A", "Mozilla/5.0 (Linux; Android 14) Chrome/120 Mobile",
            String(repeating: "x", count: 2000) + " iPhone",
        ]
        for _ in 0..<3 {
            for agent in agents {
                #expect(cache.classify(agent) == ClientClassifier.classify(agent))
            }
        }
        #expect(cache.classify(nil) == .unknown)
        #expect(cache.classify("") == .unknown)
    }

    /// U+037E GREEK QUESTION MARK is canonically equivalent to ";", so a dictionary of strings took
    /// the second agent for the first and answered its class (the user-agent fuzz target's cache
    /// check; Fuzz/user-agent/regressions/cache-canonical-agent).
    @Test func aLookAlikeAgentIsClassifiedByItsOwnBytes() {
        let cache = ClientClassCache(capacity: 4)
        let webView = "Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit"
        let lookAlike = "Mozilla/5.0 (Linux; Android 14; Pixel 8\u{37E} wv) AppleWebKit"
        #expect(webView == lookAlike, "the two are equal as Swift strings")
        for _ in 0..<2 {
            #expect(cache.classify(webView) == .inAppBrowser)
            #expect(cache.classify(lookAlike) == .android)
        }
    }
}
