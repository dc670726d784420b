import LinkLog

/// The values `stats --by` accepts without `--funnel`, named when a bad one is given.
enum DimensionOption: String, CaseIterable {
    case rule, kind, host, client, site, status, day
    case utmSource = "utm_source"
    case utmMedium = "utm_medium"
    case utmCampaign = "utm_campaign"
    case inApp = "in_app"
    case referrerHost = "referrer_host"

    var dimension: StatsDimension { StatsDimension(rawValue: rawValue) ?? .kind }
}
