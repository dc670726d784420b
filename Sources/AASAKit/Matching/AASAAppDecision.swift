/// One app's own decision for a URL: `swcutil verify` reports one line per app, and each app
/// takes the first decision of the first `details` entry that lists it and decides.
public struct AASAAppDecision: Sendable, Hashable {
    public let appID: String
    public let decision: AASADecision
    /// The deciding `details` entry, `nil` when nothing decided.
    public let detailsIndex: Int?
    /// The deciding rule's index in that entry's `components` (or `paths`).
    public let ruleIndex: Int?
    public let ruleKind: AASARuleKind?

    public init(appID: String, decision: AASADecision, detailsIndex: Int?, ruleIndex: Int?, ruleKind: AASARuleKind?) {
        self.appID = appID
        self.decision = decision
        self.detailsIndex = detailsIndex
        self.ruleIndex = ruleIndex
        self.ruleKind = ruleKind
    }
}
