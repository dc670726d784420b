import ArgumentParser
import LinkLog

/// `--by`, with the allowed values named when a bad one is given.
enum DimensionOption: String, ExpressibleByArgument, CaseIterable {
    case rule, kind, host, client, site, status, day
    case utmSource = "utm_source", utmMedium = "utm_medium", utmCampaign = "utm_campaign"

    var dimension: StatsDimension { StatsDimension(rawValue: rawValue) ?? .kind }
}
