import HTTPServing
import LinkLog
import LinkRules
import PercentCoding

/// Renders a site's fallback pages: the page of a link rule (200), a broken link (400) and an
/// unknown address (404), in the visitor's language and in the variant for the visitor's device
/// (`PageVariant`): Android visitors get Google Play and an `intent://` link when the app has an
/// Android block, computers get a QR code of the link beside the usual buttons.
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
    /// `log.trackedParameters`: whether links in QR codes carry `from=qrcode`.
    private let trackedParameters: [String]
    private let qrCodes: QRCodeImages

    /// `qrCodes` may be shared by every site of a server (keyed by link, which does not depend on
    /// the site).
    init(
        site: SiteConfiguration, publicDirectory: String, publicScheme: String, commonHeaders: CommonHeaders = .none,
        trackedParameters: [String] = LogSettings().trackedParameters, qrCodes: QRCodeImages = QRCodeImages()
    ) throws(PageSetupError) {
        self.site = site
        self.commonHeaders = commonHeaders
        self.publicScheme = publicScheme
        self.trackedParameters = trackedParameters
        self.qrCodes = qrCodes
        strings = try PageStrings.load(from: publicDirectory + "/locales", languages: site.languages)
        templates = try PageTemplates.load(folder: publicDirectory + "/templates", siteID: site.id)
    }

    /// The page for a request: from the cache when this site, host, language, variant and target
    /// were rendered before, else routed and rendered now (and kept). `served` holds what is known
    /// of the request so far; the page adds its client class, rule and (when it routes) the split
    /// query.
    func response(for request: HTTPRequest, served: ServedRequest, classes: ClientClassCache) -> AnnotatedResponse<ServedRequest> {
        var served = served
        let language = LanguageNegotiation.choose(request.headers["Accept-Language"], available: site.languages, defaultLanguage: site.defaultLanguage)
        let host = canonicalHost(for: request)
        let userAgent = request.headers["User-Agent"]
        let clientClass = classes.classify(userAgent)
        served.clientClass = clientClass
        let variant = PageVariant.choose(clientClass: clientClass, userAgent: userAgent, siteHasAndroidApp: site.app.android != nil)
        let key = RenderedPageCache.Key(site: site.id, host: host, language: language, target: request.target, variant: variant)
        if let cached = cache.entry(for: key) {
            served.kind = cached.kind
            served.rule = cached.rule
            served.pathCaptures = cached.pathCaptures
            return AnnotatedResponse(HTTPResponse(cached.response), annotation: served)
        }
        let query = LinkRouter.queryItems(request.rawQuery)
        served.query = query
        let route = request.path.hasPrefix("/static/") ? .noRule : site.router.route(rawPath: request.rawPath, query: query)
        let rendered = render(request, route: route, page: Page(language: language, host: host, variant: variant, query: query), served: served)
        let page = rendered.response
        guard let prepared = try? PreparedResponse(status: page.status, headers: page.headers, body: page.body) else { return rendered }
        let facts = rendered.annotation
        cache.store(RenderedPageCache.Entry(response: prepared, kind: facts.kind, rule: facts.rule, pathCaptures: facts.pathCaptures), for: key)
        return AnnotatedResponse(HTTPResponse(prepared), annotation: facts)
    }

    /// What a page is rendered for besides the route: the visitor's language, the host its
    /// absolute links use, and the variant for the visitor's device.
    struct Page {
        let language: String
        let host: String
        let variant: PageVariant
        /// The request's query, split as sent.
        let query: [(name: String, value: String)]
    }

    /// Renders the page for a routed request.
    private func render(_ request: HTTPRequest, route: RouteResult, page: Page, served: ServedRequest) -> AnnotatedResponse<ServedRequest> {
        var served = served
        switch route {
        case .page(let match):
            served.kind = .fallback
            served.rule = match.rule
            served.pathCaptures = match.captures
            return render(status: 200, language: page.language, context: linkContext(match, request: request, page: page), served: served)
        case .badLink(let rule, let problem, let captures):
            served.kind = .badLink
            served.rule = rule
            served.pathCaptures = captures
            return render(status: 400, language: page.language, context: badLinkContext(rule, problem, page: page), served: served)
        case .noRule:
            served.kind = .notFound
            return notFound(page, served: served)
        }
    }

    /// The 404 page: the app's name and the store, in the visitor's language.
    private func notFound(_ page: Page, served: ServedRequest) -> AnnotatedResponse<ServedRequest> {
        let language = page.language
        var context = baseContext(page)
        let app = ["app": site.app.name]
        let heading = strings.text("not_found_title", language)
        context["kind"] = "not-found"
        context["heading"] = heading
        context["documentTitle"] = "\(heading) · \(site.app.name)"
        context["message"] = strings.text("not_found_text", language, app)
        // Not the store's "open this link again": this link leads nowhere, whatever is installed.
        context["hint"] = strings.text("not_found_hint", language, app)
        context["noindex"] = true
        context["open"] = ["url": openURL("\(site.app.scheme)://", page: page), "label": strings.text("open_in_app", language, app)]
        return render(status: 404, language: language, context: context, served: served)
    }

    // MARK: contexts

    private func linkContext(_ match: LinkMatch, request: HTTPRequest, page: Page) -> [String: Any] {
        let rule = match.rule
        let language = page.language
        var context = baseContext(page)
        let app = ["app": site.app.name]
        let heading = rule.title.text(for: language, fallback: site.defaultLanguage).map { TextTemplate.fill($0, with: match.values) } ?? rule.name
        let passThrough = match.passThrough.map { (name: $0.name, value: $0.value) }
        let link = canonicalLink(rule: rule, values: match.values, extraQuery: passThrough, host: page.host)
        context["kind"] = "link"
        context["rule"] = rule.name
        context["heading"] = heading
        context["documentTitle"] = "\(heading) · \(site.app.name)"
        if let summary = rule.summary?.text(for: language, fallback: site.defaultLanguage) {
            context["summary"] = ["text": TextTemplate.fill(summary, with: match.values)]
        }
        context["canonicalURL"] = link
        // On Android the button opens the app through the link itself: an app that verified its
        // App Links handles the site's https links, while a custom scheme is the iOS app's.
        context["open"] = ["url": page.variant == .android ? openURL(link, page: page) : match.appURL, "label": strings.text("open_in_app", language, app)]
        if page.variant == .desktop, let qr = qrCodeContext(match, request: request, page: page) {
            // On a computer the code is the way to the app: it comes first, and the hint says to
            // scan it with the phone (the app or its store opens there) instead of the store's.
            context["qr"] = qr
            context["hint"] = strings.text("desktop_hint", language, app)
        }
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

    private func badLinkContext(_ rule: LinkRule, _ problem: LinkProblem, page: Page) -> [String: Any] {
        let language = page.language
        var context = baseContext(page)
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
        context["open"] = ["url": openURL("\(site.app.scheme)://", page: page), "label": strings.text("open_in_app", language, ["app": site.app.name])]
        return context
    }

    /// What every page has: language, app, store button, preview image, footer.
    private func baseContext(_ page: Page) -> [String: Any] {
        let language = page.language
        let app = ["app": site.app.name]
        var context: [String: Any] = [
            "lang": language,
            "appName": site.app.name,
            "footer": strings.text("footer", language),
        ]
        if page.variant == .android, let android = site.app.android {
            context["store"] = [
                "url": android.storeURL, "label": strings.text("get_app", language, app), "hint": strings.text("get_app_hint_android", language, app),
                "platform": "android",
            ]
        } else if let store = site.app.storeURL {
            context["store"] = [
                "url": store, "label": strings.text("get_app", language, app), "hint": strings.text("get_app_hint", language, app), "platform": "ios",
            ]
        }
        if let image = site.previewImage {
            context["previewImage"] = "\(publicScheme)://\(page.host)\(image)"
        }
        return context
    }

    /// The open button's URL: `url` itself, or on Android an `intent://` URL for it that names the
    /// app's package and falls back to its store page when the app is not installed.
    private func openURL(_ url: String, page: Page) -> String {
        guard page.variant == .android, let android = site.app.android else { return url }
        return AndroidIntentLink.make(url: url, package: android.packageName, fallbackURL: android.storeURL)
    }

    /// The QR code of a desktop page: the link with the request's `utm_*` values (a campaign that
    /// reached a computer keeps its credit when the phone opens the link) and `from=qrcode`. When
    /// that is too long for a code, the link without them; when even that is, no code.
    private func qrCodeContext(_ match: LinkMatch, request: HTTPRequest, page: Page) -> [String: Any]? {
        let passThrough = match.passThrough.map { (name: $0.name, value: $0.value) }
        let source = QRCodeLink.sourceItems(rule: match.rule, site: site, trackedParameters: trackedParameters)
        var utm: [(name: String, value: String)] = []
        for name in LogRecord.utmParameterNames {
            // The first item with this name, decoded as a browser form encodes it (`+` a space).
            if let raw = page.query.first(where: { PercentCoding.decode($0.name, plusAsSpace: true).text == name })?.value {
                let value = PercentCoding.decode(raw, plusAsSpace: true).text
                if !value.isEmpty { utm.append((name, value)) }
            }
        }
        for extra in [passThrough + source + utm, passThrough + source] {
            let link = canonicalLink(rule: match.rule, values: match.values, extraQuery: extra, host: page.host)
            // The SVG holds numbers and fixed markup only (see QRCode.svg), so it is placed
            // unescaped; `link` is there for site templates that print it, escaped like any value.
            if let svg = qrCodes.svg(for: link) {
                return ["svg": svg, "link": link, "caption": strings.text("scan_qr", page.language, ["app": site.app.name])]
            }
        }
        return nil
    }

    // MARK: helpers

    private func render(status: Int, language: String, context: [String: Any], served: ServedRequest) -> AnnotatedResponse<ServedRequest> {
        var context = context
        // A computer has no app to open: no custom-scheme button there (it would do nothing).
        if served.clientClass == .desktop { context["open"] = nil }
        var headers: HTTPHeaders = [
            "Content-Type": "text/html; charset=utf-8",
            "Content-Language": language,
            // The page differs by device (store button, open link, QR code) as well as by language.
            "Vary": "Accept-Language, User-Agent",
            "Cache-Control": "no-cache",
        ]
        SecurityHeaders.apply(to: &headers)
        commonHeaders.apply(to: &headers)
        return AnnotatedResponse(HTTPResponse(status: status, headers: headers, body: Array(templates.render(context).utf8)), annotation: served)
    }

    /// The request's host when it is one of the site's, else the site's primary host: a Host header
    /// never chooses where absolute links on the page point.
    private func canonicalHost(for request: HTTPRequest) -> String {
        guard let host = request.hostName, site.lists(host: host) else { return site.primaryHost }
        return host
    }

    /// The universal link rebuilt from the rule and its checked values followed by `extraQuery`:
    /// with the pass-through items only, what the Smart App Banner hands the app and what link
    /// previews show (no UTM or tracking items).
    private func canonicalLink(rule: LinkRule, values: [String: String], extraQuery: [(name: String, value: String)], host: String) -> String {
        let link = (try? rule.link(values: values, extraQuery: extraQuery)) ?? rule.path.aasaPattern
        return "\(publicScheme)://\(host)\(link)"
    }
}
