import AASAKit
import LinkLog
import LinkRules
import OrderedJSON

/// An AASA change checked against the links people used: every distinct logged link (page views and
/// app opens) answered by Apple's matching under the AASA file a baseline config serves and under
/// the one a new config serves, and the links whose answer changes — those that would **stop**
/// opening the app and those that would **start** — grouped per site and logged rule.
///
/// Secrets stay hashed in the log; the matcher needs a link's shape, not the code, so a hashed value
/// is replaced by a value of its parameter's type before matching. A link logged before the log kept
/// queries is answered by its path where the path alone decides under both files, and is otherwise
/// counted as not checkable.
public struct TrafficCheck: Sendable {
    /// The links of one rule whose answer is the same kind of change.
    public struct Group: Sendable, Equatable {
        public var siteID: String?
        /// The link rule that served them when logged (`nil` for rows without one).
        public var rule: String?
        /// Distinct links.
        public var links: Int
        /// Their page views and app opens in the window.
        public var hits: Int
        /// The most used of them, as logged (secrets hashed): host, path and query.
        public var example: String

        public init(siteID: String?, rule: String?, links: Int, hits: Int, example: String) {
            self.siteID = siteID
            self.rule = rule
            self.links = links
            self.hits = hits
            self.example = example
        }
    }

    /// Links that open the app under the baseline and would not under the new config.
    public let stopping: [Group]
    /// Links that do not open the app now and would under the new config.
    public let starting: [Group]
    /// Links logged before queries were kept whose path alone does not decide.
    public let notCheckable: [Group]
    /// Distinct links and hits looked at.
    public let links: Int
    public let hits: Int

    /// Whether any logged link would stop opening the app (the command's exit status 1).
    public var stopsAny: Bool { !stopping.isEmpty }

    /// Answers `links` under `baseline`'s and `new`'s AASA files.
    public init(links logged: [LoggedLink], baseline: LinkhostConfiguration, new: LinkhostConfiguration) {
        var before = SiteMatchers(baseline)
        var after = SiteMatchers(new)
        var stopping = GroupCounter()
        var starting = GroupCounter()
        var notCheckable = GroupCounter()
        // A host whose site serves the same bytes under both configs answers every link alike: its
        // links are not matched at all (a reload that changes one site checks that site's links).
        var unchanged: [String: Bool] = [:]
        for link in logged {
            let oldSite = before.site(for: link.host)
            let newSite = after.site(for: link.host)
            let same = unchanged[link.host] ?? (oldSite?.aasa.bytes == newSite?.aasa.bytes)
            unchanged[link.host] = same
            if same { continue }
            let sites = [oldSite, newSite].compactMap { $0 }
            let url = Self.matchableURL(link, sites: sites)
            guard let parsed = try? AASAURL(url) else { continue }
            let old = before.opensApp(parsed, host: link.host, pathOnly: link.isBeforeQueries)
            let now = after.opensApp(parsed, host: link.host, pathOnly: link.isBeforeQueries)
            guard let old, let now else {
                notCheckable.add(link)
                continue
            }
            if old && !now { stopping.add(link) }
            if !old && now { starting.add(link) }
        }
        self.stopping = stopping.groups
        self.starting = starting.groups
        self.notCheckable = notCheckable.groups
        self.links = logged.reduce(0) { $0 + $1.links }
        self.hits = logged.reduce(0) { $0 + $1.hits }
    }

    /// Whether `forms` (`LinkWindow.forms`) answer as their links would: every host whose file
    /// changes has a file under both configs that no digit run decides (`AASAMatcher.isBlindToDigitRuns`).
    /// Where one does, the links must be answered one by one.
    public static func formsSuffice(_ forms: [LoggedLink], baseline: LinkhostConfiguration, new: LinkhostConfiguration) -> Bool {
        var before = SiteMatchers(baseline)
        var after = SiteMatchers(new)
        var seen: Set<String> = []
        for form in forms where seen.insert(form.host).inserted {
            guard before.site(for: form.host)?.aasa.bytes != after.site(for: form.host)?.aasa.bytes else { continue }
            guard before.isBlindToDigitRuns(host: form.host), after.isBlindToDigitRuns(host: form.host) else { return false }
        }
        return true
    }

    /// Whether each of `links` opens the app under the AASA file `configuration` serves for its
    /// host (`nil` where that cannot be told: logged before queries were kept, and the query
    /// decides). What the dashboard asks of links that showed a page to people who had the app.
    public static func opensApp(_ links: [LoggedLink], under configuration: LinkhostConfiguration) -> [Bool?] {
        var matchers = SiteMatchers(configuration)
        return links.map { link in
            let sites = [matchers.site(for: link.host)].compactMap { $0 }
            guard let parsed = try? AASAURL(matchableURL(link, sites: sites)) else { return nil }
            return matchers.opensApp(parsed, host: link.host, pathOnly: link.isBeforeQueries)
        }
    }

    /// The link as a URL the matcher reads: https, its host, its path and query with every hashed
    /// secret (`hmac:…`, or `-` when the log had no key) replaced by a value of its parameter's type.
    package static func matchableURL(_ link: LoggedLink, sites: [SiteConfiguration]) -> String {
        // Most links hold no secret: nothing to replace, nothing to look up.
        let mayHoldSecret = { (text: String) in text.contains("hmac") || text.contains("/-") || text.contains("=-") }
        guard mayHoldSecret(link.path) || link.query.map(mayHoldSecret) == true else {
            return "https://" + link.host + link.path + (link.query.map { "?" + $0 } ?? "")
        }
        let rules = sites.flatMap(\.router.rules)
        let logged = rules.filter { $0.name == link.rule }
        // Path secrets in the order the logged rule's template has them; any secret type otherwise.
        var pathTypes = (logged.first?.parameters ?? []).filter { $0.isSecret && $0.location == .path }.compactMap(\.type)
        var path = ""
        for (index, segment) in link.path.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { path += "/" }
            if index > 0, LinkForm.isHashedSecret(segment) {
                path += (pathTypes.isEmpty ? ParameterType.inviteCode : pathTypes.removeFirst()).sampleValue
            } else {
                path += segment
            }
        }
        var url = "https://" + link.host + path
        guard let query = link.query else { return url }
        let secretTypes = rules.flatMap(\.parameters).filter { $0.isSecret && $0.location == .query }
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "="), LinkForm.isHashedSecret(item[item.index(after: equals)...]) else { return String(item) }
            let name = item[..<equals]
            guard let parameter = secretTypes.first(where: { $0.name == name }) else { return String(item) }
            return name + "=" + (parameter.type ?? .inviteCode).sampleValue
        }
        url += "?" + items.joined(separator: "&")
        return url
    }

    /// `--json`: the counts and the three lists.
    public var json: JSONValue {
        func list(_ groups: [Group]) -> JSONValue {
            .array(
                groups.map { group in
                    .object([
                        JSONMember("site", group.siteID.map { .string($0) } ?? .null), JSONMember("rule", group.rule.map { .string($0) } ?? .null),
                        JSONMember("links", .number(JSONNumber(group.links))), JSONMember("hits", .number(JSONNumber(group.hits))),
                        JSONMember("example", .string(group.example)),
                    ])
                })
        }
        return .object([
            JSONMember("links", .number(JSONNumber(links))), JSONMember("hits", .number(JSONNumber(hits))),
            JSONMember("stop", list(stopping)), JSONMember("start", list(starting)), JSONMember("notCheckable", list(notCheckable)),
        ])
    }

    /// Lines for people: a heading per list that has links, a line per rule, and the summary.
    public var text: String {
        var lines: [String] = []
        func section(_ title: String, _ groups: [Group]) {
            guard !groups.isEmpty else { return }
            lines.append(title)
            for group in groups {
                let name = [group.siteID, group.rule ?? "(no rule)"].compactMap { $0 }.joined(separator: " ")
                lines.append(
                    "  \(name): \(group.links) link\(group.links == 1 ? "" : "s"), \(group.hits) hit\(group.hits == 1 ? "" : "s"), e.g. \(Elision.middle(group.example, limit: 160))"
                )
            }
        }
        section("would stop opening the app:", stopping)
        section("would start opening the app:", starting)
        section("not checkable (logged before the log kept queries, and the query decides):", notCheckable)
        let stoppingLinks = stopping.reduce(0) { $0 + $1.links }
        let startingLinks = starting.reduce(0) { $0 + $1.links }
        lines.append(
            "\(links) logged link\(links == 1 ? "" : "s") (\(hits) hit\(hits == 1 ? "" : "s")): \(stoppingLinks) would stop opening the app, \(startingLinks) would start"
        )
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ParameterType {
    /// A value of this type, for matching a link whose secret the log keeps only as a hash: the AASA
    /// file needs the link's shape, not the code.
    var sampleValue: String {
        switch self {
        case .id, .page, .flag: "1"
        case .inviteCode: "TEST123"
        case .slug, .text: "a"
        }
    }
}

/// Each host's site and compiled AASA matcher under one config, looked up once per host: a log's
/// links are many and its hosts few.
private struct SiteMatchers {
    let configuration: LinkhostConfiguration
    private var sites: [String: SiteConfiguration?] = [:]
    private var matchers: [String: AASAMatcher?] = [:]

    init(_ configuration: LinkhostConfiguration) {
        self.configuration = configuration
    }

    mutating func site(for host: String) -> SiteConfiguration? {
        if let known = sites[host] { return known }
        var found: SiteConfiguration?
        if let normalized = HostLookup.normalize(host) {
            switch HostLookup.site(for: normalized, in: configuration) {
            case .listed(let site), .fallback(let site): found = site
            case .none: found = nil
            }
        }
        sites[host] = found
        return found
    }

    /// Whether the host's file cannot tell digit runs apart (no site or no readable file: it cannot).
    mutating func isBlindToDigitRuns(host: String) -> Bool {
        matcher(for: host)?.isBlindToDigitRuns ?? true
    }

    private mutating func matcher(for host: String) -> AASAMatcher? {
        if matchers[host] == nil {
            matchers[host] = site(for: host).flatMap { site in try? AASAMatcher(AASADocument(json: site.aasa.document, byteCount: site.aasa.bytes.count)) }
        }
        return matchers[host] ?? nil
    }

    /// Whether `url` opens an app under the file the host's site serves (no site or no readable
    /// file: it does not). With `pathOnly`, `nil` when the path alone does not decide.
    mutating func opensApp(_ url: AASAURL, host: String, pathOnly: Bool) -> Bool? {
        guard let matcher = matcher(for: host) else { return false }
        if pathOnly, !matcher.decidesWithoutQuery(url) { return nil }
        // The URL is made on the link's own host, which served the file: no domain to check.
        return matcher.decision(url) == .match
    }
}

/// Links added up per site and rule, each group keeping its most used link as the example.
private struct GroupCounter {
    private(set) var groups: [TrafficCheck.Group] = []

    mutating func add(_ link: LoggedLink) {
        let shown = link.example ?? (link.host + link.path + (link.query.map { "?" + $0 } ?? ""))
        if let index = groups.firstIndex(where: { $0.siteID == link.siteID && $0.rule == link.rule }) {
            groups[index].links += link.links
            groups[index].hits += link.hits
        } else {
            // Links come most used first, so a group's first link is its busiest.
            groups.append(TrafficCheck.Group(siteID: link.siteID, rule: link.rule, links: link.links, hits: link.hits, example: shown))
        }
    }
}
