/// The outcome of checking one host, from best to worst as `cdn-check`'s exit status ranks them.
public enum CDNHostState: String, Sendable, CaseIterable, Comparable {
    /// The CDN serves the same JSON as linkhost.
    case inSync = "in-sync"
    /// The CDN serves another file.
    case differs
    /// The CDN has no copy (404): devices get no file at all.
    case missing
    /// The CDN could not be asked or gave no usable answer (a timeout, 5xx, a body that is not JSON).
    case unchecked

    /// `cdn-check`'s exit status for a run whose worst host is in this state: 0 in sync, 1 a
    /// difference or no copy, 2 not checked.
    public var exitStatus: Int32 {
        switch self {
        case .inSync: 0
        case .differs, .missing: 1
        case .unchecked: 2
        }
    }

    /// A number per state for a metric (issue 12's Prometheus gauge): 0 in sync, 1 differs,
    /// 2 missing, 3 unchecked.
    public var metricValue: Int {
        switch self {
        case .inSync: 0
        case .differs: 1
        case .missing: 2
        case .unchecked: 3
        }
    }

    public static func < (left: CDNHostState, right: CDNHostState) -> Bool { left.metricValue < right.metricValue }
}
