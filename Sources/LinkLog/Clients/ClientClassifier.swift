/// Sorts a User-Agent into a `ClientClass` with a fixed table of case-insensitive substring tests,
/// tried in order, first match wins. No regular expressions: it runs for every logged request.
///
/// The order is what makes it right: previewers and in-app browsers carry ordinary iOS/Android
/// browser strings too, so they are tried first; crawlers before phones because Googlebot's smartphone
/// crawler says "Android". Previewers are the fetchers that draw a link's card in a conversation
/// (facebookexternalhit, Twitterbot — both also in Apple Messages' preview fetcher — WhatsApp, Slack,
/// Telegram, Discord, LinkedIn, Skype, Snapchat, Mastodon…); crawlers that index the web for search
/// (Googlebot, bingbot, Applebot, …) are `bot`.
public enum ClientClassifier {
    /// The class of `userAgent`; `unknown` when it is missing, empty, or unlike anything in the table.
    public static func classify(_ userAgent: String?) -> ClientClass {
        guard let userAgent, !userAgent.isEmpty else { return .unknown }
        var bytes = Array(userAgent.utf8)
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        for rule in rules where rule.matches(bytes) { return rule.clientClass }
        return .unknown
    }

    /// Which app's browser `userAgent` is (`instagram`, `facebook`, `wechat`, … or `android-webview`
    /// for an Android app that does not say which), or `nil` when it is not an in-app browser as
    /// `classify` judges it. The same markers decide both, so the two answers always agree.
    public static func inAppBrowser(_ userAgent: String?) -> String? {
        guard let userAgent, !userAgent.isEmpty else { return nil }
        var bytes = Array(userAgent.utf8)
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        for rule in rules where rule.matches(bytes) {
            guard rule.clientClass == .inAppBrowser else { return nil }
            return inAppBrowsers.first { app in app.markers.contains { bytes.containsBytes(Array($0.utf8)) } }?.app
        }
        return nil
    }

    /// Which app or crawler `userAgent` is when it is no person (`ClientClass.notPeople`): the app
    /// drawing a link preview (`whatsapp`, `slack`, `facebook`, `imessage`, …), the crawler
    /// (`googlebot`, `bingbot`, …), Apple's fetchers (`aasa-bot`, `cfnetwork`), or `other`; `nil`
    /// for a person's browser. Apple Messages' preview fetcher sends Facebook's and Twitter's
    /// markers together (`facebookexternalhit/1.1 Facebot Twitterbot/1.0`), which neither of those
    /// sends alone, so both together are `imessage`.
    public static func previewApp(_ userAgent: String?) -> String? {
        let clientClass = classify(userAgent)
        guard let userAgent, ClientClass.notPeople.contains(clientClass) else { return nil }
        var bytes = Array(userAgent.utf8)
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        let markers = { (markers: [String]) in markers.allSatisfy { bytes.containsBytes(Array($0.utf8)) } }
        return previewApps.first { app in app.markers.contains { markers($0) } }?.app ?? "other"
    }

    /// The previewers and crawlers by app, in the order they are told apart: Messages before
    /// Facebook and Twitter (it sends both of their markers), Telegram before Twitter (its
    /// string says "like TwitterBot"). Each entry is a list of marker sets, any set whose every
    /// marker is present naming the app. Markers are lower case.
    package static let previewApps: [(app: String, markers: [[String]])] = [
        ("imessage", [["facebookexternalhit", "twitterbot"]]),
        ("whatsapp", [["whatsapp/"]]),
        ("telegram", [["telegrambot"]]),
        ("facebook", [["facebookexternalhit"], ["facebot"]]),
        ("twitter", [["twitterbot"]]),
        ("slack", [["slackbot"], ["slack-imgproxy"]]),
        ("discord", [["discordbot"]]),
        ("linkedin", [["linkedinbot"]]),
        ("skype", [["skypeuripreview"]]),
        ("snapchat", [["snap url preview"]]),
        ("pinterest", [["pinterestbot"]]),
        ("reddit", [["redditbot"]]),
        ("mastodon", [["mastodon/"]]),
        ("googlebot", [["googlebot"]]),
        ("bingbot", [["bingbot"]]),
        ("applebot", [["applebot"]]),
        ("duckduckbot", [["duckduckbot"]]),
        ("yandex", [["yandex"]]),
        ("baidu", [["baiduspider"]]),
        ("gptbot", [["gptbot"]]),
        ("aasa-bot", [["aasa-bot"]]),
        ("cfnetwork", [["cfnetwork/"]]),
        ("curl", [["curl/"]]),
    ]

    /// The in-app browsers by app, in the order they are told apart: Messenger before Facebook (its
    /// string carries `FBAN/` too), every named app before an unnamed Android WebView (`; wv)`, which
    /// Instagram's and TikTok's Android strings carry as well). Markers are lower case. Some apps
    /// leave no trace: Gmail and Telegram open links in Safari View Controller or Chrome Custom
    /// Tabs, which send the browser's own string.
    package static let inAppBrowsers: [(app: String, markers: [String])] = [
        ("messenger", ["fban/messengerforios", "fb_iab/messenger", "fban/orca-android"]),
        ("facebook", ["fban/", "fbav/", "fb_iab", "fbios"]),
        ("instagram", ["instagram"]),
        ("line", [" line/"]),
        ("google", [" gsa/"]),
        ("snapchat", ["snapchat"]),
        ("tiktok", ["musical_ly", "bytedancewebview", "tiktok"]),
        ("wechat", ["micromessenger"]),
        ("kakaotalk", ["kakaotalk"]),
        ("linkedin", ["linkedinapp"]),
        ("pinterest", ["[pinterest/"]),
        ("twitter", ["twitter for iphone"]),
        ("whatsapp", ["whatsapp"]),
        ("android-webview", ["; wv)"]),
    ]

    /// One line of the table: a class and the lower-case markers that identify it.
    package struct Rule: Sendable {
        package enum Needs: Sendable {
            /// Any one marker is enough.
            case any
            /// Every marker must be present.
            case all
            /// A marker must open the User-Agent.
            case prefix
        }

        package let clientClass: ClientClass
        package let needs: Needs
        package let markers: [[UInt8]]

        init(_ clientClass: ClientClass, _ needs: Needs, _ markers: [String]) {
            self.clientClass = clientClass
            self.needs = needs
            self.markers = markers.map { Array($0.utf8) }
        }

        func matches(_ userAgent: [UInt8]) -> Bool {
            switch needs {
            case .any: markers.contains { userAgent.containsBytes($0) }
            case .all: markers.allSatisfy { userAgent.containsBytes($0) }
            case .prefix: markers.contains { userAgent.starts(with: $0) }
            }
        }
    }

    package static let rules: [Rule] = [
        Rule(.aasaBot, .any, ["aasa-bot"]),
        // Apple Messages' preview fetcher sends "… facebookexternalhit/1.1 Facebot Twitterbot/1.0".
        Rule(
            .linkPreview, .any,
            [
                "facebookexternalhit", "facebot", "twitterbot", "slackbot-linkexpanding", "slack-imgproxy",
                "telegrambot", "discordbot", "linkedinbot", "skypeuripreview", "snap url preview", "pinterestbot",
                "redditbot", "embedly", "iframely", "vkshare", "mastodon/", "bitlybot",
            ]),
        // WhatsApp's preview fetcher is "WhatsApp/2.23.20.0 A"; its name inside a browser string is the app.
        Rule(.linkPreview, .prefix, ["whatsapp/"]),
        Rule(.appleCFNetwork, .all, ["cfnetwork/", "darwin/"]),
        Rule(.inAppBrowser, .any, inAppBrowsers.flatMap(\.markers)),
        Rule(
            .bot, .prefix,
            [
                "curl/", "wget/", "python-requests/", "python-urllib/", "python-httpx/", "go-http-client/",
                "aiohttp/", "httpie/", "libwww-perl/", "java/", "apache-httpclient/", "node-fetch", "axios/",
                "postmanruntime/", "insomnia/", "okhttp/", "ruby", "php/",
            ]),
        Rule(
            .bot, .any,
            [
                "googlebot", "bingbot", "applebot", "duckduckbot", "yandex", "baiduspider", "petalbot",
                "ahrefsbot", "semrushbot", "gptbot", "headlesschrome", "phantomjs", "lighthouse", "scrapy",
                "crawler", "spider", "bot/", "bot;", "bot)", "bot ", "+http",
            ]),
        Rule(.ios, .any, ["iphone", "ipad", "ipod"]),
        Rule(.android, .any, ["android"]),
        Rule(.desktop, .any, ["windows nt", "macintosh", "x11", "linux"]),
    ]
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes (a plain scan: user agents and markers are short).
    fileprivate func containsBytes(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        let first = needle[0]
        var start = 0
        let lastStart = count - needle.count
        while start <= lastStart {
            if self[start] == first {
                var offset = 1
                while offset < needle.count, self[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
