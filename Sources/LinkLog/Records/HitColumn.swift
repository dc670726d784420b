/// The columns a listing of hits can show. Raw values are the database's column names (plus `time`,
/// the timestamp as readable UTC text), and the names the CLI accepts (`linkhost log --columns`).
public enum HitColumn: String, Sendable, CaseIterable {
    case id
    case time
    case timestampMilliseconds = "ts_ms"
    case site
    case host
    case method
    case path
    case kind
    case rule
    case status
    case durationMicroseconds = "duration_us"
    case utmSource = "utm_source"
    case utmMedium = "utm_medium"
    case utmCampaign = "utm_campaign"
    case utmTerm = "utm_term"
    case utmContent = "utm_content"
    case params
    case referrer
    case userAgent = "user_agent"
    case clientClass = "client_class"
    case clientAddress = "client_addr"
    /// What a fallback page reported (`open-app`, `store`, `copy`), for kind `event`.
    case event
    /// The hashed invite-code token that pairs views with app opens. Shown only when asked for by
    /// name: it is there for the funnel's pairing, not for reading.
    case secret

    /// A selection that reads well in a 120-column terminal: the site rather than the host and the
    /// client class rather than the user agent (both long), which JSON and CSV output carry in full.
    public static let tableDefault: [HitColumn] = [
        .time, .site, .kind, .rule, .status, .path, .utmSource, .utmCampaign, .clientClass,
    ]

    /// What a listing shows when no columns are chosen and width is no concern (JSON, CSV): every
    /// column except `secret`.
    public static let fullDefault: [HitColumn] = allCases.filter { $0 != .secret }

    /// How early a table narrows this column: free text first, then the path and campaign fields,
    /// then rules and hosts, then the short fixed vocabularies (site, kind, client class); numbers and
    /// times last.
    public var giveWay: ResultTable.GiveWay {
        switch self {
        case .userAgent, .referrer, .params: .first
        case .path, .utmSource, .utmMedium, .utmCampaign, .utmTerm, .utmContent, .clientAddress, .secret: .normal
        case .host, .rule: .late
        case .site, .method, .kind, .clientClass, .event: .last
        case .id, .time, .timestampMilliseconds, .status, .durationMicroseconds: .never
        }
    }

    /// Whether the column holds integers (right-aligned in tables, bare numbers in JSON).
    public var isNumeric: Bool {
        switch self {
        case .id, .timestampMilliseconds, .status, .durationMicroseconds: true
        default: false
        }
    }

    /// This column's value in `row`.
    public func value(in row: LogRow) -> String? {
        switch self {
        case .id: String(row.id)
        case .time: row.timeText
        case .timestampMilliseconds: String(row.timestampMilliseconds)
        case .site: row.siteID
        case .host: row.host
        case .method: row.method
        case .path: row.path
        case .kind: row.kind
        case .rule: row.rule
        case .status: String(row.status)
        case .durationMicroseconds: String(row.durationMicroseconds)
        case .utmSource: row.utmSource
        case .utmMedium: row.utmMedium
        case .utmCampaign: row.utmCampaign
        case .utmTerm: row.utmTerm
        case .utmContent: row.utmContent
        case .params: row.parametersJSON
        case .referrer: row.referrer
        case .userAgent: row.userAgent
        case .clientClass: row.clientClass
        case .clientAddress: row.clientAddress
        case .event: row.event
        case .secret: row.secret
        }
    }
}
