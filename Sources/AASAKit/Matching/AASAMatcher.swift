import OrderedJSON

/// Apple's universal-link matching for one AASA file: compile once, then match URLs cheaply and
/// from any thread.
///
/// Decision: each app is evaluated on its own, entry by entry in array order, and
/// takes the first decision (match or exclude) of the first entry that lists it. An exclusion in
/// entry 0 therefore blocks only the apps entry 0 lists: if entry 1 matches the URL for app B, the
/// URL opens app B. This mirrors `swcutil verify`, which reports an independent line per app. An
/// app listed in several entries keeps the first entry's decision; later entries are consulted for
/// it only when earlier ones do not decide. The overall decision is `match` when any app matches
/// (the earliest such entry is reported), else `exclude` when any app is blocked, else `none`.
public struct AASAMatcher: Sendable {
    public let document: AASADocument
    let entries: [CompiledEntry]

    /// Compiles every rule of `document`.
    public init(_ document: AASADocument) {
        self.document = document
        if let appLinks = document.appLinks {
            entries = appLinks.details.map {
                CompiledEntry($0, domainDefaults: appLinks.defaults, variables: appLinks.substitutionVariables)
            }
        } else {
            entries = []
        }
    }

    /// Parses `urlText` with ``AASAURL`` and matches it.
    public func match(_ urlText: String, options: AASAMatchOptions = AASAMatchOptions()) throws(AASAURLError) -> AASAMatchResult {
        try match(AASAURL(urlText), options: options)
    }

    /// Decides what the file says about `url`.
    public func match(_ url: AASAURL, options: AASAMatchOptions = AASAMatchOptions()) -> AASAMatchResult {
        let domain = options.domain ?? url.host
        if let refusal = Self.refusal(of: url, options: options) {
            return AASAMatchResult(
                url: url, domain: domain, decision: .none, rule: nil, appIDs: [], appDecisions: [],
                closestRule: nil, explanation: refusal.description, refusal: refusal)
        }
        let prepared = PreparedURL(url)
        let considered = entries.filter { options.appID.map($0.source.appIDs.contains) ?? true }
        let appDecisions = Self.appDecisions(prepared, entries: considered, options: options)
        let explainer = MatchExplainer(entries: considered, url: prepared, document: document, options: options)
        let deciding = appDecisions.first { $0.decision == .match } ?? appDecisions.first
        guard let deciding, let detailsIndex = deciding.detailsIndex, let ruleIndex = deciding.ruleIndex, let kind = deciding.ruleKind,
            let entry = considered.first(where: { $0.source.index == detailsIndex })
        else {
            if let refused = Self.refusedAppDecision(prepared, entries: considered, options: options) {
                return AASAMatchResult(
                    url: url, domain: domain, decision: .none, rule: nil, appIDs: [], appDecisions: [], closestRule: nil, explanation: refused)
            }
            let miss = explainer.explainMiss()
            return AASAMatchResult(
                url: url, domain: domain, decision: .none, rule: nil, appIDs: [], appDecisions: [],
                closestRule: miss.closest, explanation: miss.text)
        }
        let apps = appDecisions.filter { $0.detailsIndex == detailsIndex && $0.decision == deciding.decision }.map(\.appID)
        let reference = AASARuleReference(
            detailsIndex: detailsIndex, ruleIndex: ruleIndex, kind: kind,
            jsonPath: entry.source.jsonPath.appending(kind == .component ? "components" : "paths").appending(ruleIndex))
        let explanation = explainer.explainDecision(deciding.decision, entry: entry, reference: reference, apps: apps, all: appDecisions)
        return AASAMatchResult(
            url: url, domain: domain, decision: deciding.decision, rule: reference, appIDs: apps,
            appDecisions: appDecisions, closestRule: nil, explanation: explanation)
    }

    /// The decision alone, without the explanation `match` words: for answering many URLs (every
    /// link of a log, `check --against-log`), where wording each answer would cost most of the time.
    public func decision(_ url: AASAURL, options: AASAMatchOptions = AASAMatchOptions()) -> AASADecision {
        guard Self.refusal(of: url, options: options) == nil else { return .none }
        let considered = entries.filter { options.appID.map($0.source.appIDs.contains) ?? true }
        let decisions = Self.appDecisions(PreparedURL(url), entries: considered, options: options)
        if decisions.contains(where: { $0.decision == .match }) { return .match }
        return decisions.isEmpty ? .none : .exclude
    }

    /// Each app's decision: its first entry, in array order, that decides, and that entry's first
    /// rule that matches.
    private static func appDecisions(_ prepared: PreparedURL, entries considered: [CompiledEntry], options: AASAMatchOptions) -> [AASAAppDecision] {
        var decided = Set<String>()
        var appDecisions: [AASAAppDecision] = []
        for entry in considered {
            // An app ID iOS cannot hold (malformed) is no app: its entry opens nothing for it.
            let apps = entry.source.appIDs.filter {
                !decided.contains($0) && entry.refusedAppIDs[$0] == nil && (options.appID == nil || $0 == options.appID)
            }
            guard !apps.isEmpty, let hit = entry.firstDecision(for: prepared) else { continue }
            for app in apps {
                decided.insert(app)
                appDecisions.append(
                    AASAAppDecision(
                        appID: app, decision: hit.excludes ? .exclude : .match,
                        detailsIndex: entry.source.index, ruleIndex: hit.ruleIndex, ruleKind: hit.kind))
            }
        }
        return appDecisions
    }

    /// When no app decided but a rule of an entry whose app IDs are all malformed matches: why nothing
    /// opens (those IDs name no app a device can have), for `match` to say instead of a plain miss.
    private static func refusedAppDecision(_ prepared: PreparedURL, entries considered: [CompiledEntry], options: AASAMatchOptions) -> String? {
        for entry in considered where !entry.refusedAppIDs.isEmpty {
            let apps = entry.source.appIDs.filter { entry.refusedAppIDs[$0] != nil && (options.appID == nil || $0 == options.appID) }
            guard let app = apps.first, let hit = entry.firstDecision(for: prepared), !hit.excludes else { continue }
            let part = hit.kind == .component ? "components" : "paths"
            return "applinks.details[\(entry.source.index)].\(part)[\(hit.ruleIndex)] matches, but iOS opens nothing through it: "
                + "\(entry.refusedAppIDs[app] ?? "") (AASA010), so no app a device can have is named; nothing opens"
        }
        return nil
    }

    /// Why `url` is not a link this file can decide, checked before any rule: a scheme other than
    /// https, then a host other than the domain, then a port the domain does not cover.
    static func refusal(of url: AASAURL, options: AASAMatchOptions) -> AASAURLRefusal? {
        if let scheme = url.scheme, scheme != "https" { return .notHTTPS(scheme: scheme) }
        guard let wanted = options.domain, let host = url.host, let asciiHost = url.asciiHost else { return nil }
        let domain = DomainName(wanted)
        guard domain.matches(asciiHost: asciiHost) else { return .anotherHost(domain: wanted, host: host) }
        let expected = domain.port ?? DomainName.httpsPort
        guard (url.port ?? DomainName.httpsPort) == expected else { return .anotherPort(domain: wanted, port: url.port, expected: expected) }
        return nil
    }
}
