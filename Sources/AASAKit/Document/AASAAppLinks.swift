import OrderedJSON

/// The `applinks` section: which URLs open which app.
public struct AASAAppLinks: Sendable {
    public let jsonPath: JSONPath
    /// Domain-level `defaults`.
    public let defaults: AASAComponent?
    /// Usable entries in document order (broken ones are skipped and reported).
    public let details: [AASADetailsEntry]
    /// Custom substitution variables.
    public let substitutionVariables: AASASubstitutionVariables
    /// The legacy `apps` array when present (iOS 9–12 required `[]`).
    public let legacyApps: [String]?
    /// Whether `details` used the oldest form: an object keyed by app ID. Its entries keep the order
    /// written in the file (an `NSDictionary` has none, so Apple's order is undefined).
    public let detailsIsDictionary: Bool

    public init(
        jsonPath: JSONPath = JSONPath.root.appending("applinks"), defaults: AASAComponent? = nil,
        details: [AASADetailsEntry], substitutionVariables: AASASubstitutionVariables = AASASubstitutionVariables(),
        legacyApps: [String]? = nil, detailsIsDictionary: Bool = false
    ) {
        self.jsonPath = jsonPath
        self.defaults = defaults
        self.details = details
        self.substitutionVariables = substitutionVariables
        self.legacyApps = legacyApps
        self.detailsIsDictionary = detailsIsDictionary
    }
}
