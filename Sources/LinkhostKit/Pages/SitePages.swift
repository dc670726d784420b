import Foundation
import HTTPServing
import LinkLog
import LinkRules
import PercentCoding

/// Renders a site's fallback pages: the page of a link rule (200), a broken link (400) and an
/// unknown address (404), in the visitor's language and in the variant for the visitor's device
/// (`PageVariant`): Android visitors get Google Play and an `intent://` link when the app has an
/// Android block, computers get a QR code of the link instead of the open button.
///
/// A page is its template rendered once per shape (`PageShape`: kind, host, language, device, rule,
/// which optional parts) with markers for the values that vary from link to link, then filled in
/// per request (`PageSkeleton`); a link seen before comes from the page cache whole.
///
/// Every value taken from the request reaches the page HTML-escaped (as the template's `{{…}}`
/// would); values placed into URLs are also percent-encoded (parameters) or sanitised (raw path and
/// query), and the URLs' schemes and hosts come from the config, never from the request.
final class SitePages: Sendable {
    let site: SiteConfiguration
    private let strings: PageStrings
    private let templates: PageTemplates
    private let publicScheme: String
    private let commonHeaders: CommonHeaders
    private let cache = RenderedPageCache()
    private let skeletons = PageSkeletons()
    /// `log.trackedParameters`: whether links in QR codes carry `from=qrcode`.
    private let trackedParameters: [String]
    private let qrCodes: QRCodeImages
    /// The response headers of a page in each of the site's languages.
    private let headers: [String: CheckedHeaders]
    /// The same for a page that carries a view token: personal, so no shared cache may keep it.
    private let personalHeaders: [String: CheckedHeaders]
    /// Where the view tokens come from.
    private let tokens: ViewTokenSource
    /// Each rule's heading and summary in each of the site's languages (in `site.languages` order),
    /// split at their placeholders; by the rule's identity, which is cheaper to hash than its name.
    private let ruleTexts: [ObjectIdentifier: [RuleTexts]]

    /// `qrCodes` may be shared by every site of a server (keyed by link, which does not depend on
    /// the site).
    init(
        site: SiteConfiguration, publicDirectory: String, publicScheme: String, commonHeaders: CommonHeaders = .none,
        trackedParameters: [String] = LogSettings().trackedParameters, qrCodes: QRCodeImages = QRCodeImages(),
        tokens: ViewTokenSource = .shared
    ) throws(PageSetupError) {
        self.site = site
        self.commonHeaders = commonHeaders
        self.publicScheme = publicScheme
        self.trackedParameters = trackedParameters
        self.qrCodes = qrCodes
        self.tokens = tokens
        strings = try PageStrings.load(from: publicDirectory + "/locales", languages: site.languages)
        templates = try PageTemplates.load(folder: publicDirectory + "/templates", siteID: site.id)
        var headers: [String: CheckedHeaders] = [:]
        var personalHeaders: [String: CheckedHeaders] = [:]
        for language in site.languages {
            // A page with a view token is one person's: a shared cache or CDN must never hand its
            // token to someone else (RFC 9111 §5.2.2.3, §5.2.2.7).
            for (cacheControl, personal) in [("no-cache", false), ("private, no-store", true)] {
                var fields: HTTPHeaders = [
                    "Content-Type": "text/html; charset=utf-8",
                    "Content-Language": language,
                    // The page differs by device (store button, open link, QR code) as well as by language.
                    "Vary": "Accept-Language, User-Agent",
                    "Cache-Control": cacheControl,
                ]
                SecurityHeaders.apply(to: &fields)
                commonHeaders.apply(to: &fields)
                do {
                    if personal { personalHeaders[language] = try CheckedHeaders(fields) } else { headers[language] = try CheckedHeaders(fields) }
                } catch {
                    throw PageSetupError("the pages' headers cannot be sent: \(error)")
                }
            }
        }
        self.headers = headers
        self.personalHeaders = personalHeaders
        // A rule gets the texts of the first rule of its name, as when they were found by name.
        var textsByName: [String: [RuleTexts]] = [:]
        var ruleTexts: [ObjectIdentifier: [RuleTexts]] = [:]
        for rule in site.router.rules {
            let texts =
                textsByName[rule.name] ?? site.languages.map { RuleTexts(rule: rule, language: $0, defaultLanguage: site.defaultLanguage) }
            textsByName[rule.name] = texts
            ruleTexts[rule.identity] = texts
        }
        self.ruleTexts = ruleTexts
    }

    /// The page for a request: from the cache when this site, host, language, variant and target
    /// were answered before, else routed and made now (and kept from its second request on).
    /// `served` holds what is known of the request so far; the page adds its client class, rule and
    /// (when it routes) the split query.
    func response(for request: HTTPRequest, served: ServedRequest, classes: ClientClassCache) -> AnnotatedResponse<ServedRequest> {
        var served = served
        let language = LanguageNegotiation.choose(request.headers["Accept-Language"], available: site.languages, defaultLanguage: site.defaultLanguage)
        let host = canonicalHost(for: request)
        let userAgent = request.headers["User-Agent"]
        let clientClass = classes.classify(userAgent)
        served.clientClass = clientClass
        let variant = PageVariant.choose(clientClass: clientClass, userAgent: userAgent, siteHasAndroidApp: site.app.android != nil)
        // A person's view of a link gets a token of its own; a desktop page's token is inside its QR
        // code, which is drawn per view, so that page is made whole each time and never kept (its
        // broken-link and not-found pages, which carry no token, are).
        let personal = ViewToken.isIssued(to: clientClass)
        let cacheable = !(personal && variant == .desktop)
        let key = RenderedPageCache.Key(site: site.id, host: host, language: language, target: request.target, variant: variant, personal: personal)
        if let cached = cache.entry(for: key) {
            served.kind = cached.kind
            served.rule = cached.rule
            served.pathCaptures = cached.pathCaptures
            switch cached.page {
            case .prepared(let prepared):
                return AnnotatedResponse(HTTPResponse(prepared), annotation: served)
            case .tokenized(let page):
                let token = tokens.make()
                served.viewToken = token
                return AnnotatedResponse(personalResponse(page.body(with: token), language: language), annotation: served)
            }
        }
        // Kept from its second request on (`RenderedPageCache.admits`): a page asked for once is
        // made with its token in place and not kept.
        let kept = cache.admits(key)
        let keptWithMarkers = kept && cacheable
        let split = LinkRouter.queryItems(request.rawQuery)
        let (query, rawQuery) = ViewToken.removed(from: split, rawQuery: request.rawQuery)
        served.query = query
        served.viewTokenRemoved = query.count != split.count
        let route = request.path.hasPrefix("/static/") ? .noRule : site.router.route(rawPath: request.rawPath, query: query)
        let page = Page(language: language, host: host, variant: variant, query: query, rawQuery: rawQuery)
        var token: String?
        let status: Int
        let shape: PageShape.Kind
        var values = PageValues()
        switch route {
        case .page(let match):
            status = 200
            served.kind = .fallback
            served.rule = match.rule
            served.pathCaptures = match.captures
            shape = .link(rule: match.rule.name)
            if personal {
                let made = tokens.make()
                token = made
                served.viewToken = made
            }
            // A page that is kept holds the marker where the token goes; any other its own token.
            values = linkValues(match, request: request, page: page, token: keptWithMarkers ? token.map { _ in TokenizedPage.marker } : token)
        case .badLink(let rule, let problem, let captures):
            status = 400
            served.kind = .badLink
            served.rule = rule
            served.pathCaptures = captures
            shape = .badLink(rule: rule.name, problem: Self.key(problem))
            values = badLinkValues(rule, problem, page: page)
        case .noRule:
            status = 404
            served.kind = .notFound
            shape = .notFound
            values = notFoundValues(page)
        }
        let pageShape = PageShape(kind: shape, host: host, language: language, variant: variant, slots: values.present)
        let skeleton = skeletons.skeleton(for: pageShape) {
            PageSkeleton(rendered: templates.render(context(pageShape, route: route, page: page, values: .markers(for: pageShape.slots))))
        }
        var markers: [Int] = []
        let body = skeleton.fill(values, marking: token != nil && keptWithMarkers ? TokenizedPage.markerBytes : nil, at: &markers)
        if let token {
            guard keptWithMarkers else { return AnnotatedResponse(personalResponse(body, language: language), annotation: served) }
            let page = TokenizedPage(body: body, markerOffsets: markers)
            cache.store(RenderedPageCache.Entry(page: .tokenized(page), kind: served.kind, rule: served.rule, pathCaptures: served.pathCaptures), for: key)
            return AnnotatedResponse(personalResponse(page.body(with: token), language: language), annotation: served)
        }
        guard let fields = headers[language] ?? headers.values.first, let prepared = try? PreparedResponse(status: status, checkedHeaders: fields, body: body)
        else {
            return AnnotatedResponse(HTTPResponse(status: status, headers: headers[language]?.fields ?? HTTPHeaders(), body: body), annotation: served)
        }
        if kept {
            cache.store(RenderedPageCache.Entry(page: .prepared(prepared), kind: served.kind, rule: served.rule, pathCaptures: served.pathCaptures), for: key)
        }
        return AnnotatedResponse(HTTPResponse(prepared), annotation: served)
    }

    /// A link's page carrying a view token: made for this request alone, sent as personal.
    private func personalResponse(_ body: [UInt8], language: String) -> HTTPResponse {
        guard let fields = personalHeaders[language] ?? personalHeaders.values.first,
            let prepared = try? PreparedResponse(status: 200, checkedHeaders: fields, body: body)
        else { return HTTPResponse(status: 200, headers: personalHeaders[language]?.fields ?? HTTPHeaders(), body: body) }
        return HTTPResponse(prepared)
    }

    /// The page skeletons made so far (for tests).
    var skeletonCount: Int { skeletons.count }

    /// The pages kept in the cache (for tests).
    var cachedPageCount: Int { cache.count }

    /// The page rendered whole with Mustache from its values, as a skeleton filled with the same
    /// values gives it (for tests that hold the two to each other).
    func renderedWhole(for request: HTTPRequest, language: String, variant: PageVariant, token: String? = nil) -> (status: Int, body: String) {
        let (query, rawQuery) = ViewToken.removed(from: LinkRouter.queryItems(request.rawQuery), rawQuery: request.rawQuery)
        let page = Page(language: language, host: canonicalHost(for: request), variant: variant, query: query, rawQuery: rawQuery)
        let route = request.path.hasPrefix("/static/") ? .noRule : site.router.route(rawPath: request.rawPath, query: query)
        let (status, shape, values): (Int, PageShape.Kind, PageValues) =
            switch route {
            case .page(let match): (200, .link(rule: match.rule.name), linkValues(match, request: request, page: page, token: token))
            case .badLink(let rule, let problem, _): (400, .badLink(rule: rule.name, problem: Self.key(problem)), badLinkValues(rule, problem, page: page))
            case .noRule: (404, .notFound, notFoundValues(page))
            }
        let pageShape = PageShape(kind: shape, host: page.host, language: language, variant: variant, slots: values.present)
        return (status, templates.render(context(pageShape, route: route, page: page, values: values)))
    }

    /// What a page is made for besides the route: the visitor's language, the host its absolute
    /// links use, the variant for the visitor's device, and the request's query (split as sent, and
    /// as sent), without any `lh_view`.
    struct Page {
        let language: String
        let host: String
        let variant: PageVariant
        let query: [(name: String, value: String)]
        let rawQuery: String?
    }

    private static func key(_ problem: LinkProblem) -> LinkProblemKey {
        switch problem {
        case .malformed(let name, let type): LinkProblemKey(code: problem.code, parameter: name, detail: type.rawValue)
        case .wrongValue(let name, let expected): LinkProblemKey(code: problem.code, parameter: name, detail: expected)
        case .missing(let name), .repeated(let name), .unexpected(let name): LinkProblemKey(code: problem.code, parameter: name, detail: "")
        }
    }

    // MARK: values: what varies from link to link

    /// The values of a link's page; `token` is the view's token (or the marker a cached page holds
    /// in its place), put on every hand-off to the app: the open button, the Smart App Banner's
    /// argument, the copied link, Google Play's install referrer and the QR code.
    private func linkValues(_ match: LinkMatch, request: HTTPRequest, page: Page, token: String?) -> PageValues {
        let rule = match.rule
        let language = page.language
        var values = PageValues()
        let texts =
            site.languages.firstIndex(of: language).flatMap { ruleTexts[rule.identity]?[$0] }
            ?? RuleTexts(rule: rule, language: language, defaultLanguage: site.defaultLanguage)
        // The page's texts are made one after another in this builder (`takeText`).
        var text = TextBuilder(capacity: 512)
        var heading = rule.name
        if let title = texts.title {
            title.fill(match.values, into: &text)
            heading = text.takeText()
        }
        let passThrough = match.passThrough.map { (name: $0.name, value: $0.value) }
        let link = canonicalLink(rule: rule, values: match.values, extraQuery: passThrough, host: page.host, in: &text)
        var handOff = link
        if let token {
            ViewToken.add(token, to: link, in: &text)
            handOff = text.takeText()
        }
        values[.heading] = heading
        values[.documentTitle] = documentTitle(heading, in: &text)
        if let summary = texts.summary {
            summary.fill(match.values, into: &text)
            values[.summary] = text.takeText()
        }
        values[.canonicalURL] = link
        switch page.variant {
        // On Android the button opens the app through the link itself: an app that verified its
        // App Links handles the site's https links, while a custom scheme is the iOS app's.
        case .android:
            let store = playStoreURL(page: page, token: token)
            values[.storeURL] = store
            values[.openURL] = openURL(handOff, page: page, fallbackURL: store)
        case .standard:
            if let token {
                ViewToken.add(token, to: match.appURL, in: &text)
                values[.openURL] = text.takeText()
            } else {
                values[.openURL] = match.appURL
            }
        // The iOS app's scheme opens nothing on Android; the link itself is what to carry over.
        case .otherPlatform:
            values[.copyValue] = handOff
        // On a computer the code is the way to the app (the custom scheme would do nothing there).
        case .desktop:
            if let (svg, qrLink) = qrCode(match, page: page, token: token) {
                values[.qrSVG] = svg
                values[.qrLink] = qrLink
            }
        }
        if let appStoreID = site.app.appStoreID {
            text.append("app-id=")
            text.append(appStoreID)
            text.append(", app-argument=")
            text.append(handOff)
            values[.banner] = text.takeText()
        }
        if let parameter = rule.parameters.first(where: { $0.isCopyable && match.values[$0.name] != nil }), let code = match.values[parameter.name] {
            values[.copyCode] = code
            values[.copyValue] = handOff
        }
        if rule.continueOnWeb, let base = site.webBaseURL {
            // In the builder: joining encoded pieces with `+` made a string for each piece and each join.
            text.append(base)
            text.append(percentEncoding: request.rawPath, .pathAndQuery)
            if let rawQuery = page.rawQuery, !rawQuery.isEmpty {
                text.append(ascii: UInt8(ascii: "?"))
                text.append(percentEncoding: rawQuery, .pathAndQuery)
            }
            values[.webURL] = text.takeText()
        }
        return values
    }

    private func badLinkValues(_ rule: LinkRule, _ problem: LinkProblem, page: Page) -> PageValues {
        var values = PageValues()
        let heading = strings.text("bad_link_title", page.language, problemWords(rule, problem, language: page.language).values)
        values[.heading] = heading
        var text = TextBuilder(capacity: heading.utf8.count + 64)
        values[.documentTitle] = documentTitle(heading, in: &text)
        if page.variant == .standard || page.variant == .android { values[.openURL] = openURL("\(site.app.scheme)://", page: page) }
        return values
    }

    private func notFoundValues(_ page: Page) -> PageValues {
        var values = PageValues()
        let heading = strings.text("not_found_title", page.language)
        values[.heading] = heading
        var text = TextBuilder(capacity: heading.utf8.count + 64)
        values[.documentTitle] = documentTitle(heading, in: &text)
        if page.variant == .standard || page.variant == .android { values[.openURL] = openURL("\(site.app.scheme)://", page: page) }
        return values
    }

    // MARK: contexts: the template's view of a page, made once per shape

    /// The template context of a page of `shape` with `values` (markers, or real values for a whole render).
    private func context(_ shape: PageShape, route: RouteResult, page: Page, values: PageValues) -> [String: Any] {
        let language = page.language
        let app = ["app": site.app.name]
        var context: [String: Any] = [
            "lang": language,
            "appName": site.app.name,
            "footer": strings.text("footer", language),
        ]
        if page.variant == .android, let android = site.app.android {
            context["store"] = [
                "url": values[.storeURL] ?? android.storeURL, "label": strings.text("get_app", language, app),
                "hint": strings.text("get_app_hint_android", language, app),
                "platform": "android",
            ]
        } else if page.variant == .otherPlatform {
            var elsewhere: [String: Any] = ["note": strings.text("other_platform", language, app)]
            // The link to carry to an iPhone, unless the page's code box already copies it.
            if values[.copyCode] == nil, let link = values[.copyValue] {
                // Its own key: Mustache looks a name up the context stack, and `copy` would find the
                // page's code box and draw its button a second time.
                elsewhere["linkCopy"] = ["value": link, "label": strings.text("copy_link", language), "copiedLabel": strings.text("copied", language)]
            }
            context["elsewhere"] = elsewhere
        } else if let store = site.app.storeURL {
            context["store"] = [
                "url": store, "label": strings.text("get_app", language, app), "hint": strings.text("get_app_hint", language, app), "platform": "ios",
            ]
        }
        if let image = site.previewImage {
            context["previewImage"] = "\(publicScheme)://\(page.host)\(image)"
        }
        context["heading"] = values[.heading]
        context["documentTitle"] = values[.documentTitle]
        if let url = values[.openURL] { context["open"] = ["url": url, "label": strings.text("open_in_app", language, app)] }
        switch route {
        case .page(let match):
            let rule = match.rule
            context["kind"] = "link"
            context["rule"] = rule.name
            if let summary = values[.summary] { context["summary"] = ["text": summary] }
            context["canonicalURL"] = values[.canonicalURL]
            if let svg = values[.qrSVG], let link = values[.qrLink] {
                // The SVG holds numbers and fixed markup only (see QRCode.svg), so the template
                // places it unescaped; `link` is there for site templates that print it, escaped.
                context["qr"] = ["svg": svg, "link": link, "caption": strings.text("scan_qr", language, app)]
                // The code comes first, and the hint says to scan it with the phone (the app or
                // its store opens there) instead of the store's.
                context["hint"] = strings.text("desktop_hint", language, app)
            }
            if let banner = values[.banner] { context["banner"] = ["content": banner] }
            if let code = values[.copyCode], let link = values[.copyValue],
                let parameter = rule.parameters.first(where: { $0.isCopyable && match.values[$0.name] != nil })
            {
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
            if let url = values[.webURL] { context["web"] = ["url": url, "label": strings.text("continue_on_web", language)] }
        case .badLink(let rule, let problem, _):
            let words = problemWords(rule, problem, language: language)
            context["kind"] = "bad-link"
            context["rule"] = rule.name
            context["message"] = strings.text(words.key, language, words.values)
            context["hint"] = strings.text("bad_link_hint", language, words.values)
            context["noindex"] = true
        case .noRule:
            context["kind"] = "not-found"
            context["message"] = strings.text("not_found_text", language, app)
            // Not the store's "open this link again": this link leads nowhere, whatever is installed.
            context["hint"] = strings.text("not_found_hint", language, app)
            context["noindex"] = true
        }
        return context
    }

    /// The strings key of a broken link's sentence and the words it is filled with.
    private func problemWords(_ rule: LinkRule, _ problem: LinkProblem, language: String) -> (key: String, values: [String: String]) {
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
        return (key, values)
    }

    /// The open button's URL: `url` itself, or on Android an `intent://` URL for it that names the
    /// app's package and falls back to its store page (`fallbackURL`, else the configured one) when
    /// the app is not installed.
    private func openURL(_ url: String, page: Page, fallbackURL: String? = nil) -> String {
        guard page.variant == .android, let android = site.app.android else { return url }
        return AndroidIntentLink.make(url: url, package: android.packageName, fallbackURL: fallbackURL ?? android.storeURL)
    }

    /// The Google Play page of the app with an install referrer (`referrer`, which Play hands the
    /// app once after installing, through its Install Referrer API): the link's `utm_*` values and
    /// the view's token, as one URL-encoded query. `nil` when there is nothing to hand over, or when
    /// the configured store URL already names a referrer of its own.
    private func playStoreURL(page: Page, token: String?) -> String? {
        guard let android = site.app.android, !android.storeURL.contains("referrer=") else { return nil }
        var referrer = ""
        for (name, value) in utmItems(page) {
            referrer += referrer.isEmpty ? "" : "&"
            referrer += PercentCoding.encode(name) + "=" + PercentCoding.encode(value)
        }
        if let token {
            referrer += referrer.isEmpty ? "" : "&"
            referrer += ViewToken.parameterName + "="
            // Encoded on its own: the token (or the marker) needs no encoding and must stay as it is.
            return android.storeURL + (android.storeURL.contains("?") ? "&" : "?") + "referrer=" + PercentCoding.encode(referrer, .component) + token
        }
        guard !referrer.isEmpty else { return nil }
        return android.storeURL + (android.storeURL.contains("?") ? "&" : "?") + "referrer=" + PercentCoding.encode(referrer, .component)
    }

    /// The request's non-empty `utm_*` values, each the first of its name, decoded as a browser
    /// form encodes them (`+` a space).
    private func utmItems(_ page: Page) -> [(name: String, value: String)] {
        var utm: [(name: String, value: String)] = []
        for name in LogRecord.utmParameterNames {
            if let raw = page.query.first(where: { PercentCoding.decode($0.name, plusAsSpace: true).text == name })?.value {
                let value = PercentCoding.decode(raw, plusAsSpace: true).text
                if !value.isEmpty { utm.append((name, value)) }
            }
        }
        return utm
    }

    /// The QR code of a desktop page and the link in it: the link with the request's `utm_*` values
    /// (a campaign that reached a computer keeps its credit when the phone opens the link),
    /// `from=qrcode` and the view's token (a phone that scans it and opens the app is paired with
    /// this view). When that is too long for a code, the link without the `utm_*` values; when even
    /// that is, no code. A code with a token is drawn for this view alone and not kept.
    private func qrCode(_ match: LinkMatch, page: Page, token: String?) -> (svg: String, link: String)? {
        let passThrough = match.passThrough.map { (name: $0.name, value: $0.value) }
        let source = QRCodeLink.sourceItems(rule: match.rule, site: site, trackedParameters: trackedParameters)
        let utm = utmItems(page)
        let viewItem = token.map { [(name: ViewToken.parameterName, value: $0)] } ?? []
        for extra in [passThrough + source + utm + viewItem, passThrough + source + viewItem] {
            let link = canonicalLink(rule: match.rule, values: match.values, extraQuery: extra, host: page.host)
            if let svg = qrCodes.svg(for: link, keep: token == nil) { return (svg, link) }
        }
        return nil
    }

    // MARK: helpers

    /// The request's host when it is one of the site's, else the site's primary host: a Host header
    /// never chooses where absolute links on the page point.
    private func canonicalHost(for request: HTTPRequest) -> String {
        guard let host = request.hostName, site.lists(host: host) else { return site.primaryHost }
        return host
    }

    /// The universal link rebuilt from the rule and its checked values followed by `extraQuery`:
    /// with the pass-through items only, what the Smart App Banner hands the app and what link
    /// previews show (no UTM or tracking items).
    private func canonicalLink(rule: LinkRule, values: LinkValues, extraQuery: [(name: String, value: String)], host: String) -> String {
        var text = TextBuilder(capacity: 160)
        return canonicalLink(rule: rule, values: values, extraQuery: extraQuery, host: host, in: &text)
    }

    /// The canonical link (see above), made in `text`, which it leaves empty.
    private func canonicalLink(
        rule: LinkRule, values: LinkValues, extraQuery: [(name: String, value: String)], host: String, in text: inout TextBuilder
    ) -> String {
        func appendOrigin() {
            text.append(publicScheme)
            text.append("://")
            text.append(host)
        }
        appendOrigin()
        do {
            try rule.link(checkedValues: values, extraQuery: extraQuery, into: &text)
        } catch {
            // A link whose values do not make a link (the router checked them, so only an
            // unexpected rule) shows the rule's pattern rather than nothing.
            text.removeAll()
            appendOrigin()
            text.append(rule.path.aasaPattern)
        }
        return text.takeText()
    }

    /// The page's `<title>`: its heading, then the app's name (made in `text`, which it leaves empty).
    private func documentTitle(_ heading: String, in text: inout TextBuilder) -> String {
        text.append(heading)
        text.append(" · ")
        text.append(site.app.name)
        return text.takeText()
    }
}

/// The `intent://` URL of an Android page's open button: Chrome (and browsers that follow it) opens
/// the app with `package` directly for `url`, and when the app is not installed goes to
/// `S.browser_fallback_url` instead of showing an error.
enum AndroidIntentLink {
    /// `url` is `scheme://rest` (an https universal link, or the app's custom-scheme URL).
    static func make(url: String, package: String, fallbackURL: String) -> String {
        let schemeEnd = url.range(of: "://")
        let scheme = schemeEnd.map { String(url[..<$0.lowerBound]) } ?? "https"
        var rest = schemeEnd.map { String(url[$0.upperBound...]) } ?? url
        // The intent's own fields start at the first '#': one in the URL would cut it short.
        rest = rest.replacingOccurrences(of: "#", with: "%23")
        // Extra values are percent-decoded by the browser, and ';' and '=' delimit the fields:
        // everything but unreserved characters is encoded.
        let fallback = PercentCoding.encode(fallbackURL, .component)
        return "intent://\(rest)#Intent;scheme=\(scheme);package=\(package);S.browser_fallback_url=\(fallback);end"
    }
}

/// A rule's heading and summary in one language, split at their `{name}` placeholders once.
private struct RuleTexts: Sendable {
    let title: TemplatePieces?
    let summary: TemplatePieces?

    init(rule: LinkRule, language: String, defaultLanguage: String) {
        title = rule.title.text(for: language, fallback: defaultLanguage).map(TemplatePieces.init)
        summary = rule.summary?.text(for: language, fallback: defaultLanguage).map(TemplatePieces.init)
    }
}
