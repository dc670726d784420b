/// What `LogReader.stats` groups hits by. Raw values are the names the CLI accepts.
public enum StatsDimension: String, Sendable, CaseIterable {
    case rule
    case kind
    case host
    /// The client class.
    case client
    case utmSource = "utm_source"
    case utmMedium = "utm_medium"
    case utmCampaign = "utm_campaign"
    /// The UTC calendar day, `2026-11-01`.
    case day
    case site
    case status

    /// The SQL giving each row's group key.
    var keyExpression: String {
        switch self {
        case .rule: "rule"
        case .kind: "kind"
        case .host: "host"
        case .client: "client_class"
        case .utmSource: "utm_source"
        case .utmMedium: "utm_medium"
        case .utmCampaign: "utm_campaign"
        // Whole seconds first: strftime's 'unixepoch' takes seconds.
        case .day: "strftime('%Y-%m-%d', ts_ms / 1000, 'unixepoch')"
        case .site: "site"
        case .status: "status"
        }
    }

    /// Days read best in calendar order; everything else busiest first.
    var ordering: String {
        self == .day ? "key ASC" : "hits DESC, key ASC"
    }
}
