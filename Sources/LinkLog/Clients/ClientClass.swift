/// Who made a request, judged from its User-Agent; stored in the `client_class` column.
public enum ClientClass: String, Sendable, CaseIterable {
    /// Apple's CDN crawler fetching the apple-app-site-association file (`AASA-Bot/…`).
    case aasaBot = "aasa-bot"
    /// A device fetching directly through Apple's networking stack (`CFNetwork/… Darwin/…`): the swcd
    /// downloader of the AASA in developer mode, and other native app requests.
    case appleCFNetwork = "apple-cfnetwork"
    /// A chat or social app fetching a page to draw its link preview (Messages, WhatsApp, Slack, …).
    case linkPreview = "link-preview"
    /// A browser inside another app (Instagram, Facebook, LINE, the Google app, TikTok, Android WebView).
    case inAppBrowser = "in-app-browser"
    /// A browser on iPhone, iPad (when it says so) or iPod.
    case ios
    /// A browser on Android.
    case android
    /// A browser on a computer (iPadOS Safari presents itself as a Mac and is counted here).
    case desktop
    /// A crawler or a scripted client (search engines, curl, wget, HTTP libraries).
    case bot
    /// No User-Agent, or one that fits none of the above.
    case unknown

    /// The classes that are no person reading a page: link previews, crawlers and scripts, and
    /// Apple's fetchers. The funnel counts their fallback pages as `previews`, apart from `views`.
    public static let notPeople: [ClientClass] = [.linkPreview, .bot, .aasaBot, .appleCFNetwork]

    /// The SQL condition on the `client_class` column that holds for a row no person caused.
    public static let notPersonCondition = "client_class IN (\(notPeople.map { "'\($0.rawValue)'" }.joined(separator: ", ")))"

    /// The SQL condition that holds for a row a person caused: any class but `notPeople` (rows
    /// without a class, logged before classes existed, count as people).
    public static let personCondition = personCondition(on: "client_class")

    /// `personCondition` on the column `column` (`seen.client_class`, say).
    public static func personCondition(on column: String) -> String {
        "(\(column) IS NULL OR \(column) NOT IN (\(notPeople.map { "'\($0.rawValue)'" }.joined(separator: ", "))))"
    }
}
