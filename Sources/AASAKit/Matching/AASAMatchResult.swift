/// The answer to "does this URL open the app, and which rule decided?".
public struct AASAMatchResult: Sendable {
    /// The URL that was matched.
    public let url: AASAURL
    /// The domain the lines of ``swcutilVerifyLines()`` name: the option given, else the URL's host.
    public let domain: String?
    public let decision: AASADecision
    /// The deciding rule, `nil` for decision `none`.
    public let rule: AASARuleReference?
    /// The app IDs this decision applies to: the deciding entry's apps that had not been decided
    /// by an earlier entry (all of them, usually). Empty for `none`.
    public let appIDs: [String]
    /// Every app's own decision, in the order the apps were decided (entry order).
    public let appDecisions: [AASAAppDecision]
    /// For `none`: the rule that came closest (most of `/`, `?`, `#` matched), to show what to fix.
    public let closestRule: AASARuleReference?
    /// For people: which rule decided and why, or which rule came closest and which part failed.
    public let explanation: String
    /// Why the URL was answered `none` without reading any rule (another host, not https), or `nil`.
    public let refusal: AASAURLRefusal?

    public init(
        url: AASAURL, domain: String?, decision: AASADecision, rule: AASARuleReference?, appIDs: [String],
        appDecisions: [AASAAppDecision], closestRule: AASARuleReference?, explanation: String, refusal: AASAURLRefusal? = nil
    ) {
        self.url = url
        self.domain = domain
        self.decision = decision
        self.rule = rule
        self.appIDs = appIDs
        self.appDecisions = appDecisions
        self.closestRule = closestRule
        self.explanation = explanation
        self.refusal = refusal
    }

    /// Whether the URL was refused because its host (or port) is not the given domain's.
    public var isOnAnotherHost: Bool {
        switch refusal {
        case .anotherHost?, .anotherPort?: true
        case .notHTTPS?, nil: false
        }
    }

    /// Index of the deciding `details` entry, `nil` for `none`.
    public var detailsIndex: Int? { rule?.detailsIndex }
    /// Index of the deciding rule in that entry's `components`, or in its `paths` when
    /// ``ruleKind`` is ``AASARuleKind/legacyPath``; `nil` for `none`.
    public var componentIndex: Int? { rule?.ruleIndex }
    public var ruleKind: AASARuleKind? { rule?.kind }

    /// The result in the words of `swcutil verify -d <domain> -j <file> -u <url>` (macOS): one line per
    /// app that matched or was blocked, else "Input JSON did not match input URL.". A URL that is not
    /// https gets that last line too: no recording shows swcutil's words for it (an inference).
    public func swcutilVerifyLines() -> [String] {
        switch refusal {
        case .anotherHost(let domain, let host)?:
            return ["Input domain \"\(domain)\" did not match input URL's domain \"\(host)\"."]
        case .anotherPort(let domain, let port, _)?:
            // Not recorded: the domain line with the URL's host and port, as swcutil would compare them.
            let authority = (url.host ?? "") + (port.map { ":\($0)" } ?? "")
            return ["Input domain \"\(domain)\" did not match input URL's domain \"\(authority)\"."]
        case .notHTTPS?, nil:
            break
        }
        let lines = appDecisions.compactMap { decided -> String? in
            let head = "{ s = applinks, a = \(decided.appID), d = \(domain ?? "") }: Pattern \"\(url.text)\""
            switch decided.decision {
            case .match: return head + " matched."
            case .exclude: return head + " blocked match."
            case .none: return nil
            }
        }
        return lines.isEmpty ? ["Input JSON did not match input URL."] : lines
    }
}

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

/// What an AASA file says about one URL.
public enum AASADecision: String, Sendable, Hashable {
    /// A rule matched: the app opens the link.
    case match
    /// An `exclude` rule (or a `NOT ` path) matched first: the link stays in the browser.
    case exclude
    /// No rule matched (or the URL is on another host): the link stays in the browser.
    case none
}
