import ArgumentParser
import LinkLog

/// `--by`, with the allowed values named when a bad one is given.
enum DimensionOption: String, ExpressibleByArgument, CaseIterable {
    case rule, kind, host, client, site, status, day
    case utmSource = "utm_source"
    case utmMedium = "utm_medium"
    case utmCampaign = "utm_campaign"

    var dimension: StatsDimension { StatsDimension(rawValue: rawValue) ?? .kind }
}
