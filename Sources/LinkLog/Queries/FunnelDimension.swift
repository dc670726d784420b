/// What `LogReader.funnel` groups by. Raw values are the names `linkhost stats --funnel --by` accepts.
/// Fewer than `StatsDimension`: grouping the funnel by kind, host, client or status would split a
/// view from the clicks and opens it is compared with. `in_app` and `referrer_host` say where the
/// views came from, which is what a Universal Link that did not open the app depends on.
public enum FunnelDimension: String, Sendable, CaseIterable {
    case utmCampaign = "utm_campaign"
    case utmSource = "utm_source"
    case utmMedium = "utm_medium"
    case rule
    /// The UTC calendar day, `2026-11-01`.
    case day
    case site
    /// Which app's in-app browser showed the page.
    case inApp = "in_app"
    /// The host of the page's Referer.
    case referrerHost = "referrer_host"

    /// The same grouping in plain statistics, whose key expression the funnel shares.
    var statsDimension: StatsDimension {
        switch self {
        case .utmCampaign: .utmCampaign
        case .utmSource: .utmSource
        case .utmMedium: .utmMedium
        case .rule: .rule
        case .day: .day
        case .site: .site
        case .inApp: .inApp
        case .referrerHost: .referrerHost
        }
    }
}
