import OrderedJSON

/// A flat `{ "apps": [...] }` service: `webcredentials`, `appclips` or `activitycontinuation`.
public struct AASAServiceApps: Sendable, Hashable {
    public let jsonPath: JSONPath
    /// The app IDs listed, in order.
    public let apps: [String]
    /// Where each of ``apps`` is written (same order).
    public let appPaths: [JSONPath]

    public init(jsonPath: JSONPath, apps: [String], appPaths: [JSONPath]? = nil) {
        self.jsonPath = jsonPath
        self.apps = apps
        self.appPaths = appPaths ?? apps.indices.map { jsonPath.appending("apps").appending($0) }
    }
}
