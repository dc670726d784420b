import HTTPServing
import LinkRules
import PercentCoding

/// Renders a site's fallback pages: the page of a link rule (200), a broken link (400) and an
/// unknown address (404), in the visitor's language.
///
/// Every value taken from the request reaches the page through the template's HTML escaping; values
/// placed into URLs are also percent-encoded (parameters) or sanitised (raw path and query), and the
/// URLs' schemes and hosts come from the config, never from the request.
final class SitePages: Sendable {
    let site: SiteConfiguration
    private let strings: PageStrings
    private let templates: PageTemplates
    private let publicScheme: String
    private let commonHeaders: CommonHeaders
    private let cache = RenderedPageCache()

    init(site: SiteConfiguration, publicDirectory: String, publicScheme: String, commonHeaders: CommonHeaders = .none) throws(PageSetupError) {
        self.site = site
        self.commonHeaders = commonHeaders
        self.publicScheme = publicScheme
        strings = try PageStrings.load(from: publicDirectory + "/locales", languages: site.languages)
        templates = try PageTemplates.load(folder: publicDirectory + "/templates", siteID: site.id)
    }

    /// The page for a request: from the cache when this site, host, language and target were
    /// rendered before, else routed and rendered now (and kept).
    func response(for request: HTTPRequest) -> AnnotatedResponse<HitAnnotation> {
        let language = LanguageNegotiation.choose(request.headers["Accept-Language"], available: site.languages, defaultLanguage: site.defaultLanguage)
        let host = canonicalHost(for: request)
        let key = RenderedPageCache.Key(site: site.id, host: host, language: language, target: request.target)
        if let cached = cache.entry(for: key) {
            return AnnotatedResponse(HTTPResponse(cached.response), annotation: cached.annotation)
        }
        let route = request.path.hasPrefix("/static/") ? .noRule : site.router.route(rawPath: request.rawPath, rawQuery: request.rawQuery)
        let rendered = render(request, route: route, language: language, host: host)
        let page = rendered.response
        guard let prepared = try? PreparedResponse(status: page.status, headers: page.headers, body: page.body) else { return rendered }
        cache.store(RenderedPageCache.Entry(response: prepared, annotation: rendered.annotation), for: key)
        return AnnotatedResponse(HTTPResponse(prepared), annotation: rendered.annotation)
    }

    /// Renders the page for a routed request.
    private func render(_ request: HTTPRequest, route: RouteResult, language: String, host: String) -> AnnotatedResponse<HitAnnotation> {
        switch route {
        case .page(let match):
            return render(
                status: 200, language: language, context: linkContext(match, request: request, language: language, host: host),
                annotation: HitAnnotation(kind: .fallback, siteID: site.id, rule: match.rule.name, pathCaptures: match.captures))
        case .badLink(let rule, let problem, let captures):
            return render(
                status: 400, language: language, context: badLinkContext(rule, problem, language: language, host: host),
                annotation: HitAnnotation(kind: .badLink, siteID: site.id, rule: rule.name, pathCaptures: captures))
        case .noRule:
            return notFound(language: language, host: host)
        }
    }

    /// The 404 page: the app's name and the store, in the visitor's language.
    private func notFound(language: String, host: String) -> AnnotatedResponse<HitAnnotation> {
        var context = baseContext(language: language, host: host)
        let app = ["app": site.app.name]
        let heading = strings.text("not_found_title", language)
        context["kind"] = "not-found"
        context["heading"] = heading
        context["documentTitle"] = "\(heading) · \(site.app.name)"
        context["message"] = strings.text("not_found_text", language, app)
        context["noindex"] = true
        context["open"] = ["url": "\(site.app.scheme)://", "label": strings.text("open_in_app", language, app)]
        return render(status: 404, language: language, context: context, annotation: HitAnnotation(kind: .notFound, siteID: site.id))
    }

    // MARK: contexts

    private func linkContext(_ match: LinkMatch, request: HTTPRequest, language: String, host: String) -> [String: Any] {
        let rule = match.rule
        var context = baseContext(language: language, host: host)
        let app = ["app": site.app.name]
        let heading = rule.title.text(for: language, fallback: site.defaultLanguage).map { TextTemplate.fill($0, with: match.values) } ?? rule.name
        let link = canonicalLink(rule: rule, values: match.values, passThrough: match.passThrough, host: host)
        context["kind"] = "link"
        context["rule"] = rule.name
        context["heading"] = heading
        context["documentTitle"] = "\(heading) · \(site.app.name)"
        if let summary = rule.summary?.text(for: language, fallback: site.defaultLanguage) {
            context["summary"] = ["text": TextTemplate.fill(summary, with: match.values)]
        }
        context["canonicalURL"] = link
        context["open"] = ["url": match.appURL, "label": strings.text("open_in_app", language, app)]
        if let appStoreID = site.app.appStoreID {
            context["banner"] = ["content": "app-id=\(appStoreID), app-argument=\(link)"]
        }
        if let parameter = rule.parameters.first(where: { $0.isCopyable && match.values[$0.name] != nil }), let code = match.values[parameter.name] {
            let label = parameter.label?.text(for: language, fallback: site.defaultLanguage) ?? parameter.name
            context["copy"] = [
                "code": code,
                "codeLabel": strings.text("code_label", language, ["param": label]),
                "value": link,
                "label": strings.text("copy_link", language),
                "copiedLabel": strings.text("copied", language),
                "hint": strings.text("copy_hint", language, app),
            ]
        }
        if rule.continueOnWeb, let base = site.webBaseURL {
            let query = request.rawQuery.map { $0.isEmpty ? "" : "?" + PercentCoding.encode($0, .pathAndQuery) } ?? ""
            context["web"] = ["url": base + PercentCoding.encode(request.rawPath, .pathAndQuery) + query, "label": strings.text("continue_on_web", language)]
        }
        return context
    }

    private func badLinkContext(_ rule: LinkRule, _ problem: LinkProblem, language: String, host: String) -> [String: Any] {
        var context = baseContext(language: language, host: host)
        let noun = rule.noun?.text(for: language, fallback: site.defaultLanguage) ?? strings.text("default_noun", language)
        let parameter = rule.parameter(problem.parameter)
        let label = parameter?.label?.text(for: language, fallback: site.defaultLanguage) ?? problem.parameter
        var values = ["noun": noun, "param": label, "app": site.app.name]
        let key: String
        switch problem {
        case .missing: key = "missing_parameter"
        case .malformed(_, let type):
            key = "malformed_parameter"
            values["expected"] = strings.text("type_\(type.rawValue)", language)
        case .repeated: key = "repeated_parameter"
        case .wrongValue(_, let expected):
            key = "wrong_value"
            values["value"] = expected
        case .unexpected: key = "unexpected_parameter"
        }
        let heading = strings.text("bad_link_title", language, values)
        context["kind"] = "bad-link"
        context["rule"] = rule.name
        context["heading"] = heading
        context["documentTitle"] = "\(heading) · \(site.app.name)"
        context["message"] = strings.text(key, language, values)
        context["hint"] = strings.text("bad_link_hint", language, values)
        context["noindex"] = true
        context["open"] = ["url": "\(site.app.scheme)://", "label": strings.text("open_in_app", language, ["app": site.app.name])]
        return context
    }

    /// What every page has: language, app, store button, preview image, footer.
    private func baseContext(language: String, host: String) -> [String: Any] {
        var context: [String: Any] = [
            "lang": language,
            "appName": site.app.name,
            "footer": strings.text("footer", language),
        ]
        if let store = site.app.storeURL {
            context["store"] = [
                "url": store, "label": strings.text("get_app", language, ["app": site.app.name]),
                "hint": strings.text("get_app_hint", language, ["app": site.app.name]),
            ]
        }
        if let image = site.previewImage {
            context["previewImage"] = "\(publicScheme)://\(host)\(image)"
        }
        return context
    }

    // MARK: helpers

    private func render(status: Int, language: String, context: [String: Any], annotation: HitAnnotation) -> AnnotatedResponse<HitAnnotation> {
        var headers: HTTPHeaders = [
            "Content-Type": "text/html; charset=utf-8",
            "Content-Language": language,
            "Vary": "Accept-Language",
            "Cache-Control": "no-cache",
        ]
        SecurityHeaders.apply(to: &headers)
        commonHeaders.apply(to: &headers)
        return AnnotatedResponse(HTTPResponse(status: status, headers: headers, body: Array(templates.render(context).utf8)), annotation: annotation)
    }

    /// The request's host when it is one of the site's, else the site's primary host: a Host header
    /// never chooses where absolute links on the page point.
    private func canonicalHost(for request: HTTPRequest) -> String {
        guard let host = request.hostName, site.lists(host: host) else { return site.primaryHost }
        return host
    }

    /// The universal link rebuilt from the rule and its checked values (no UTM or tracking items):
    /// what the Smart App Banner hands the app and what link previews show.
    private func canonicalLink(rule: LinkRule, values: [String: String], passThrough: [PassThroughValue], host: String) -> String {
        let link = (try? rule.link(values: values, extraQuery: passThrough.map { ($0.name, $0.value) })) ?? rule.path.aasaPattern
        return "\(publicScheme)://\(host)\(link)"
    }
}
