import AASAKit
import LinkRules
import OrderedJSON

/// Why a URL does or does not open the app — Apple's matching rules applied to the AASA file the
/// host serves — and, with a config, which fallback page people without the app get.
public struct LinkExplanation: Sendable {
    public let url: String
    public let domain: String?
    /// The site serving the URL's host (config mode).
    public let siteID: String?
    public let decision: AASADecision
    public let detailsIndex: Int?
    public let componentIndex: Int?
    public let ruleKind: AASARuleKind?
    /// App IDs of the deciding `details` entry.
    public let appIDs: [String]
    public let explanation: String
    /// The fallback route (config mode): the rule and its app URL, or the broken-link problem.
    public let page: PageOutcome?

    /// What a visitor without the app gets.
    public enum PageOutcome: Sendable, Equatable {
        case page(rule: String, appURL: String)
        case badLink(rule: String, problem: String)
        case notFound
    }

    /// Explains `url` with the site of its host in `configuration`.
    public static func explain(_ url: String, configuration: LinkhostConfiguration, appID: String? = nil) throws(AASAURLError) -> LinkExplanation {
        let parsed = try AASAURL(url)
        // The ASCII form, so a URL written with an IDN finds the site listed in Punycode.
        guard let rawHost = parsed.asciiHost, let host = HostLookup.normalize(rawHost) else {
            throw AASAURLError("\"\(url)\" has no host; with --config, give a full URL such as https://rowhni.com/addfriend?code=TEST123")
        }
        let site: SiteConfiguration
        switch HostLookup.site(for: host, in: configuration) {
        case .listed(let found), .fallback(let found):
            site = found
        case .none:
            return LinkExplanation(
                url: url, domain: host, siteID: nil, decision: .none, detailsIndex: nil, componentIndex: nil, ruleKind: nil, appIDs: [],
                explanation: "no site serves the host \(host), so it has no AASA file here (server.unknownHost is \"404\")", page: nil)
        }
        if let refusal = fileRefusal(byteCount: site.aasa.bytes.count) { return refused(url, domain: host, siteID: site.id, refusal) }
        let document: AASADocument
        do {
            document = try AASADocument(json: site.aasa.document, byteCount: site.aasa.bytes.count)
        } catch {
            return LinkExplanation(
                url: url, domain: host, siteID: site.id, decision: .none, detailsIndex: nil, componentIndex: nil, ruleKind: nil, appIDs: [],
                explanation: "\(error)", page: nil)
        }
        let result = AASAMatcher(document).match(parsed, options: AASAMatchOptions(domain: host, appID: appID))
        let target = parsed.path.isEmpty ? "/" : parsed.path
        let parts = HTTPRequestTargetParts(target + (parsed.query.map { "?" + $0 } ?? ""))
        let page: PageOutcome
        switch site.router.route(rawPath: parts.rawPath, rawQuery: parts.rawQuery) {
        case .page(let match): page = .page(rule: match.rule.name, appURL: match.appURL)
        case .badLink(let rule, let problem, _): page = .badLink(rule: rule.name, problem: problem.description)
        case .noRule: page = .notFound
        }
        return LinkExplanation(result, url: url, siteID: site.id, page: page)
    }

    /// Explains `url` against an AASA file given as bytes, served from `domain` (if given).
    ///
    /// A file a device refuses whole — larger than iOS reads, or not a usable AASA file — decides that
    /// nothing opens, and the explanation says why (the URL must still be usable: that throws).
    public static func explain(_ url: String, aasa bytes: [UInt8], domain: String?, appID: String? = nil) throws -> LinkExplanation {
        let parsed = try AASAURL(url)
        if let refusal = fileRefusal(byteCount: bytes.count) { return refused(url, domain: domain, siteID: nil, refusal) }
        let document: AASADocument
        do {
            document = try AASADocument(bytes: bytes)
        } catch {
            return refused(url, domain: domain, siteID: nil, "iOS refuses the file: \(error)")
        }
        let result = AASAMatcher(document).match(parsed, options: AASAMatchOptions(domain: domain, appID: appID))
        return LinkExplanation(result, url: url, siteID: nil, page: nil)
    }

    /// Why iOS refuses a file of `byteCount` bytes (AASA003), `nil` when it reads it.
    private static func fileRefusal(byteCount: Int) -> String? {
        guard byteCount > AASAValidator.maximumFileSize else { return nil }
        return "iOS refuses the file: it is \(byteCount) bytes, and iOS reads AASA files of at most \(AASAValidator.maximumFileSize) bytes (128 KB, AASA003)"
    }

    /// Nothing opens: the file itself is refused, for `reason`.
    private static func refused(_ url: String, domain: String?, siteID: String?, _ reason: String) -> LinkExplanation {
        LinkExplanation(
            url: url, domain: domain, siteID: siteID, decision: .none, detailsIndex: nil, componentIndex: nil, ruleKind: nil, appIDs: [],
            explanation: reason + "; nothing opens from it", page: nil)
    }

    private init(_ result: AASAMatchResult, url: String, siteID: String?, page: PageOutcome?) {
        self.init(
            url: url, domain: result.domain, siteID: siteID, decision: result.decision, detailsIndex: result.detailsIndex,
            componentIndex: result.componentIndex, ruleKind: result.ruleKind, appIDs: result.appIDs, explanation: result.explanation, page: page)
    }

    private init(
        url: String, domain: String?, siteID: String?, decision: AASADecision, detailsIndex: Int?, componentIndex: Int?, ruleKind: AASARuleKind?,
        appIDs: [String], explanation: String, page: PageOutcome?
    ) {
        self.url = url
        self.domain = domain
        self.siteID = siteID
        self.decision = decision
        self.detailsIndex = detailsIndex
        self.componentIndex = componentIndex
        self.ruleKind = ruleKind
        self.appIDs = appIDs
        self.explanation = explanation
        self.page = page
    }

    /// `--json`: `decision`, `details`, `component` (in `paths` for a legacy entry), `app`,
    /// `explain`, and the rest for people who script around it.
    public var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember("decision", .string(decision.rawValue)),
            JSONMember("details", detailsIndex.map { .number(JSONNumber($0)) } ?? .null),
            JSONMember("component", componentIndex.map { .number(JSONNumber($0)) } ?? .null),
            JSONMember("ruleKind", ruleKind.map { .string($0 == .legacyPath ? "paths" : "components") } ?? .null),
            JSONMember("app", appIDs.first.map { .string($0) } ?? .null),
            JSONMember("apps", .array(appIDs.map { .string($0) })),
            JSONMember("explain", .string(explanation)),
            JSONMember("url", .string(url)),
            JSONMember("domain", domain.map { .string($0) } ?? .null),
            JSONMember("site", siteID.map { .string($0) } ?? .null),
        ]
        switch page {
        case .page(let rule, let appURL)?:
            members.append(JSONMember("page", .object([JSONMember("status", 200), JSONMember("rule", .string(rule)), JSONMember("appURL", .string(appURL))])))
        case .badLink(let rule, let problem)?:
            members.append(
                JSONMember("page", .object([JSONMember("status", 400), JSONMember("rule", .string(rule)), JSONMember("problem", .string(problem))])))
        case .notFound?:
            members.append(JSONMember("page", .object([JSONMember("status", 404)])))
        case nil:
            break
        }
        return .object(members)
    }

    /// Lines for people; a very long URL is shown with its middle cut out (`--json` keeps it whole).
    public var text: String {
        var lines = [Elision.middle(url, limit: 160)]
        let who = appIDs.isEmpty ? "" : " for \(appIDs.joined(separator: ", "))"
        switch decision {
        case .match: lines.append("  decision: match — opens the app\(who)")
        case .exclude: lines.append("  decision: exclude — blocked\(who); the link opens in the browser")
        case .none: lines.append("  decision: none — no rule opens the app; the link opens in the browser")
        }
        if let detailsIndex, let componentIndex {
            lines.append("  rule:     applinks.details[\(detailsIndex)].\(ruleKind == .legacyPath ? "paths" : "components")[\(componentIndex)]")
        }
        lines.append("  why:      \(explanation)")
        switch page {
        case .page(let rule, let appURL)?: lines.append("  page:     200, rule \(rule), Open button → \(appURL)")
        case .badLink(let rule, let problem)?: lines.append("  page:     400, broken link of rule \(rule): \(problem)")
        case .notFound?: lines.append("  page:     404, no link rule serves this path")
        case nil: break
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
