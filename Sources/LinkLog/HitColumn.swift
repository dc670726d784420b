/// The columns a listing of hits can show. Raw values are the database's column names (plus `time`,
/// the timestamp as readable UTC text), and the names the CLI accepts.
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

    /// A selection that reads well in a terminal table.
    public static let tableDefault: [HitColumn] = [
        .time, .host, .kind, .rule, .status, .path, .utmSource, .utmCampaign, .clientClass, .userAgent,
    ]

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
        }
    }
}
