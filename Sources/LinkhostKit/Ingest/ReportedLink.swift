import HTTPServing
import LinkRules
import PercentCoding

/// A link an app or a page reported, routed exactly as the fallback page would route it: the web
/// URL's host must be one of the site's and its path and query must make a page of one of its
/// rules. A custom-scheme URL (`rowhni://addfriend?code=…`) is read back through the rules' app
/// URL templates and routed as the web link it stands for, so both kinds of opens log alike.
struct ReportedLink: Sendable {
    /// The host of the web link (the site's primary host for a custom-scheme URL).
    let host: String
    /// The web link's path and query as they are routed and logged (the query split as sent).
    let rawPath: String
    let query: [(name: String, value: String)]
    let match: LinkMatch
    /// The values of the link's `lh_view` items, taken out before it was routed (`ViewToken`).
    var viewTokens: [String] = []

    /// Writes the reported link into a request's facts: what the log stores instead of the API call.
    func describe(in served: inout ServedRequest, kind: HitKind, occurredAt: Int64?) {
        served.kind = kind
        served.rule = match.rule
        served.pathCaptures = match.captures
        served.query = query
        served.reported = ReportedTarget(host: host, rawPath: rawPath, occurredAt: occurredAt)
    }

    /// Routes a full URL (`https://rowhni.com/addfriend?code=ABC123`) for `site`, without its view
    /// token (`lh_view`), which is kept in `viewTokens`.
    static func resolve(url given: String, site: SiteConfiguration) -> Result<ReportedLink, HTTPProblem> {
        let (url, tokens) = takingViewTokens(from: given)
        return resolveWithoutTokens(url: url, site: site).map { link in
            var link = link
            link.viewTokens = tokens
            return link
        }
    }

    private static func resolveWithoutTokens(url: String, site: SiteConfiguration) -> Result<ReportedLink, HTTPProblem> {
        // Over the UTF-8 bytes: every separator is ASCII, so every cut is between characters. Walking
        // the URL by `Character` (and Foundation's `contains`) cost more than the rest of an app
        // open's parsing.
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) else {
            return .failure(.unprocessableLink("\"\(abbreviated(url))\" is not an absolute URL; send the full URL the app was opened with"))
        }
        let scheme = String(Substring(bytes[..<colon])).lowercased()
        if scheme == site.app.scheme.lowercased() { return resolveCustomScheme(url, site: site) }
        guard scheme == "https" || scheme == "http" else {
            return .failure(.unprocessableLink("the scheme \"\(scheme)\" is neither http(s) nor the app's (\"\(site.app.scheme)\")"))
        }
        let afterScheme = bytes[bytes.index(colon, offsetBy: 3)...]
        let authorityEnd =
            afterScheme.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")) else {
            return .failure(.unprocessableLink("a link with user information is not one of the site's links"))
        }
        // Drop a port: after the closing bracket of an IPv6 literal, else after the last colon.
        if let bracket = authority.lastIndex(of: UInt8(ascii: "]")) {
            authority = authority[...bracket]
        } else if let portColon = authority.lastIndex(of: UInt8(ascii: ":")) {
            authority = authority[..<portColon]
        }
        let authorityText = String(Substring(authority))
        guard let host = HostLookup.normalize(authorityText) else {
            return .failure(.unprocessableLink("\"\(abbreviated(authorityText))\" is not a host name"))
        }
        guard site.lists(host: host) else {
            return .failure(.unprocessableLink("\(host) is not a host of site \(site.id) (\(site.hosts.joined(separator: ", ")))"))
        }
        var target = afterScheme[authorityEnd...]
        if let hash = target.firstIndex(of: UInt8(ascii: "#")) { target = target[..<hash] }
        let targetText = String(Substring(target))
        let parts = HTTPRequestTargetParts(target.first == UInt8(ascii: "/") ? targetText : "/" + targetText)
        return route(host: host, rawPath: parts.rawPath, rawQuery: parts.rawQuery, site: site)
    }

    /// `url` without the `lh_view` items of its query, and their values (form-decoded).
    private static func takingViewTokens(from url: String) -> (url: String, tokens: [String]) {
        // By bytes, and nothing done for a URL without `lh_view` (most reports).
        let bytes = url.utf8
        guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (url, []) }
        let hash = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        guard question < hash else { return (url, []) }
        let base = Substring(bytes[..<hash])
        let fragment = Substring(bytes[hash...])
        let rawQuery = String(Substring(bytes[bytes.index(after: question)..<hash]))
        let tokens = ViewToken.values(in: LinkRouter.queryItems(rawQuery))
        guard !tokens.isEmpty else { return (url, []) }
        let rest = ViewToken.removed(fromRawQuery: rawQuery).map { "?" + $0 } ?? ""
        return (String(base[..<question]) + rest + fragment, tokens)
    }

    /// Routes a page's own path and query (`/addfriend?code=ABC123`) reported from that page (a page
    /// opened from a copied link has that link's `lh_view`, which is taken out).
    static func resolve(target given: String, host: String, site: SiteConfiguration) -> Result<ReportedLink, HTTPProblem> {
        guard given.hasPrefix("/") else { return .failure(.unprocessableLink("\"path\" must start with \"/\": send location.pathname + location.search")) }
        let (target, _) = takingViewTokens(from: given)
        let parts = HTTPRequestTargetParts(target)
        return route(host: host, rawPath: parts.rawPath, rawQuery: parts.rawQuery, site: site)
    }

    private static func route(host: String, rawPath: String, rawQuery: String?, site: SiteConfiguration) -> Result<ReportedLink, HTTPProblem> {
        let query = LinkRouter.queryItems(rawQuery)
        switch site.router.route(rawPath: rawPath, query: query) {
        case .page(let match):
            return .success(ReportedLink(host: host, rawPath: rawPath, query: query, match: match))
        case .badLink(let rule, let problem, _):
            return .failure(.unprocessableLink("a broken link of rule \(rule.name): \(problem)"))
        case .noRule:
            return .failure(.unprocessableLink("no link rule of site \(site.id) serves the path \(abbreviated(rawPath))"))
        }
    }

    /// The first rule whose app URL template reads `url` and whose equivalent web link is a page.
    private static func resolveCustomScheme(_ url: String, site: SiteConfiguration) -> Result<ReportedLink, HTTPProblem> {
        var closest: HTTPProblem?
        for rule in site.router.rules {
            guard let reading = rule.appURL.read(url), let path = rule.path.expand(reading.values) else { continue }
            var query: [String] = []
            for parameter in rule.queryParameters {
                switch parameter.constraint {
                case .fixed(let value): query.append(PercentCoding.encode(parameter.name) + "=" + PercentCoding.encode(value))
                case .typed, .absent:
                    if let value = reading.values[parameter.name] { query.append(PercentCoding.encode(parameter.name) + "=" + PercentCoding.encode(value)) }
                }
            }
            for item in reading.otherQuery { query.append(PercentCoding.encode(item.name) + "=" + PercentCoding.encode(item.value)) }
            let rawQuery = query.isEmpty ? nil : query.joined(separator: "&")
            switch route(host: site.primaryHost, rawPath: path, rawQuery: rawQuery, site: site) {
            case .success(let link): return .success(link)
            case .failure(let problem): closest = closest ?? problem
            }
        }
        return .failure(closest ?? .unprocessableLink("no link rule of site \(site.id) opens \(abbreviated(url)) (no app URL template has its shape)"))
    }

    /// Long attacker-chosen text is cut in answers.
    private static func abbreviated(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }
}
