import AssetLinks
import LinkRules
import OrderedJSON

/// Reads one element of `sites`: its id and hosts, app, languages, link rules and AASA file, then
/// checks that the file and the pages agree.
struct SiteParser {
    static let allowedKeys = [
        "id", "hosts", "app", "languages", "defaultLanguage", "links", "passThrough", "webBaseURL", "previewImage", "aasa", "ingest", "root",
    ]

    let problems: ConfigurationProblems
    let paths: PathResolver
    let publicFolder: PublicFolder

    /// `nil` only when the element is not an object; otherwise the site's identity, and the site
    /// when nothing in it is wrong.
    func read(_ value: JSONValue, index: Int) -> ParsedSite? {
        let path = JSONPath.root.appending("sites").appending(index)
        guard let site = ConfigObjectReader(value, at: path, problems: problems, what: "a site", allowedKeys: Self.allowedKeys) else {
            return nil
        }
        let before = problems.items.count
        let id = site.string("id", required: true, fix: "give the site a short id of lower-case letters, digits and '-', e.g. \"rowhni\"")
        if let id,
            id.isEmpty
                || !id.utf8.allSatisfy({
                    ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                })
        {
            problems.add(path.appending("id"), "\"\(id)\" is not a valid site id", fix: "use lower-case letters, digits and '-', e.g. \"rowhni\"")
        }
        let hosts = readHosts(site)
        let app = AppSectionParser(problems: problems).read(site)
        let (languages, defaultLanguage) = SiteLanguagesParser(problems: problems, publicFolder: publicFolder).read(site)
        let ruleReader = LinkRuleReader(problems: problems, languages: languages, scheme: app?.scheme)
        let links = site.value("links")
        let readRules = links.map { ruleReader.readRules($0, at: path.appending("links")) } ?? []
        let rules = readRules.map(\.rule)
        let passThrough = site.value("passThrough").map { ruleReader.readPassThrough($0, at: path.appending("passThrough")) } ?? []
        let router = LinkRouter(rules: rules, passThrough: passThrough)
        checkExamples(router, linkIndices: readRules.map(\.index), at: path.appending("links"))
        let webBaseURL = site.string("webBaseURL", fix: "write the web version's base URL, e.g. \"https://forums.somethingawful.com\"")
        if let webBaseURL, !(webBaseURL.hasPrefix("https://") || webBaseURL.hasPrefix("http://")) || webBaseURL.contains("?") || webBaseURL.contains("#") {
            problems.add(
                path.appending("webBaseURL"), "\"\(webBaseURL)\" is not an http(s) base URL",
                fix: "write scheme and host (and an optional path), e.g. \"https://forums.somethingawful.com\"")
        }
        let root = site.string("root", fix: "write the URL to send the domain's root to, e.g. \"https://rowhni.app/\"")
        if let root {
            if !(root.hasPrefix("https://") || root.hasPrefix("http://")) || root.contains(where: { $0.isWhitespace || $0.isNewline }) {
                problems.add(
                    path.appending("root"), "\"\(root)\" is not an http(s) URL",
                    fix: "write the whole URL with its scheme, e.g. \"https://rowhni.app/\", or leave root out for the not-found page")
            } else if let rule = rules.first(where: {
                if case .noRule = LinkRouter(rules: [$0], passThrough: []).route(rawPath: "/", rawQuery: nil) { false } else { true }
            }) {
                // The root is a link then: the rule's page, and what the AASA file says about it.
                problems.add(
                    path.appending("root"), "rule \"\(rule.name)\" serves \"/\", so the root is one of the site's links",
                    fix: "leave root out, or change the rule's path")
            }
        }
        let previewImage = site.string("previewImage", fix: "write the image's path under static/, e.g. \"/static/og/rowhni.png\"")
        if let previewImage, !previewImage.hasPrefix("/static/") {
            problems.add(
                path.appending("previewImage"), "\"\(previewImage)\" is not under /static/",
                fix: "put the image in \(publicFolder.path)/static/ and write its URL path, e.g. \"/static/og/rowhni.png\"")
        }
        // A site that lists rules has content even when none of them read (or "links" is not an
        // array): saying it has none would only repeat the rules' own problems.
        let declaresRules = links.map { $0.arrayElements?.isEmpty != true } ?? false
        let aasa = AASASectionParser(problems: problems, paths: paths).read(site, rules: rules, declaresRules: declaresRules, appIDs: app?.appIDs ?? [])
        let rateLimit = readIngest(site)
        guard problems.items.count == before, let id, let app, let languages, let aasa else {
            return ParsedSite(index: index, id: id, hosts: hosts, configuration: nil)
        }
        let configuration = SiteConfiguration(
            id: id, hosts: hosts.map(\.host), app: app, languages: languages, defaultLanguage: defaultLanguage, router: router,
            webBaseURL: webBaseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }, root: root, previewImage: previewImage,
            aasa: aasa.0, assetLinks: app.android.map { Self.assetLinks(for: $0) }, aasaPolicy: aasa.1, ingestRateLimit: rateLimit
        )
        // The file and the pages must agree before anything is served.
        let disagreements = SiteAgreement.check(configuration, at: path)
        disagreements.forEach(problems.add)
        return ParsedSite(index: index, id: id, hosts: hosts, configuration: disagreements.isEmpty ? configuration : nil)
    }

    /// The site's assetlinks.json, generated from `app.android` (the same layout as the AASA file).
    private static func assetLinks(for android: AndroidAppConfiguration) -> AssetLinksFile {
        let document = AssetLinksGenerator.document(packageName: android.packageName, fingerprints: android.fingerprints)
        return AssetLinksFile(bytes: document.serialized(.pretty(indent: 4)), document: document)
    }

    /// `ingest.rateLimit`: the token bucket for app opens and page events of one client network.
    private func readIngest(_ site: ConfigObjectReader) -> IngestRateLimit {
        guard let ingest = site.object("ingest", what: "the ingest settings", allowedKeys: ["rateLimit"]),
            let limit = ingest.object("rateLimit", what: "a rate limit", allowedKeys: ["burst", "perSecond"])
        else { return .default }
        return IngestRateLimit(
            burst: limit.integer("burst", in: 1...1_000_000, default: IngestRateLimit.default.burst, meaning: "requests a client network may send at once"),
            perSecond: limit.integer(
                "perSecond", in: 1...1_000_000, default: IngestRateLimit.default.perSecond, meaning: "requests per second a client network may send on average")
        )
    }

    /// The valid hosts, normalised, each with its index in the list as written.
    private func readHosts(_ site: ConfigObjectReader) -> [(host: String, index: Int)] {
        var hosts: [(host: String, index: Int)] = []
        let entries = site.strings("hosts", required: true, nonEmpty: true, fix: "list the site's host names, e.g. [\"rowhni.com\"]") ?? []
        for (index, entry) in entries.enumerated() {
            switch HostName.validate(entry.text) {
            case .success(let host):
                if hosts.contains(where: { $0.host == host }) {
                    problems.add(entry.path, "\"\(host)\" is listed twice", fix: "remove the repeat")
                } else {
                    hosts.append((host, index))
                }
            case .failure(let problem):
                problems.add(entry.path, problem.problem, fix: problem.fix)
            }
        }
        return hosts
    }

    /// Every example must route to its own rule as a page (not a broken link, not another rule).
    /// `linkIndices` gives each rule's index in `links` as written, which differs from its index in
    /// the router once a rule before it did not read.
    private func checkExamples(_ router: LinkRouter, linkIndices: [Int], at path: JSONPath) {
        for (rule, linkIndex) in zip(router.rules, linkIndices) {
            for (exampleIndex, example) in rule.examples.enumerated() {
                let request = HTTPRequestTargetParts(example)
                let examplePath = path.appending(linkIndex).appending("examples").appending(exampleIndex)
                switch router.route(rawPath: request.rawPath, rawQuery: request.rawQuery) {
                case .page(let match) where match.rule.name == rule.name:
                    continue
                case .page(let match):
                    problems.add(
                        examplePath, "\"\(example)\" opens rule \"\(match.rule.name)\", an earlier rule, not \"\(rule.name)\"",
                        fix: "move \"\(rule.name)\" before \"\(match.rule.name)\", or make the earlier rule narrower")
                case .badLink(let other, let problem, _):
                    problems.add(
                        examplePath, "\"\(example)\" is a broken link of rule \"\(other.name)\": \(problem)",
                        fix: "correct the example, or the rule's parameters")
                case .noRule:
                    problems.add(examplePath, "\"\(example)\" matches no rule", fix: "correct the example or the rule's path")
                }
            }
        }
    }
}
