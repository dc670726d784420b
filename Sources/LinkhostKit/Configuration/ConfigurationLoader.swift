import AASAKit
import Foundation
import LinkLog
import LinkRules
import OrderedJSON

/// Turns a config file into a checked `LinkhostConfiguration`, or a `ConfigurationError` listing
/// every problem with its JSON path and fix. Nothing listens until this succeeds.
public enum ConfigurationLoader {
    /// Reads and checks the config file at `path`.
    public static func load(path: String) throws(ConfigurationError) -> LinkhostConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read (check its permissions)" : "no such file"
            throw ConfigurationError(source: path, problems: [
                ConfigurationProblem(path: .root, problem: "cannot open the config file: \(reason)", fix: "pass --config PATH to a readable config.json, or run from the folder that holds one")
            ])
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(Array(data), source: path, baseDirectory: directory)
    }

    /// Checks config JSON given as bytes; relative paths inside resolve against `baseDirectory`.
    public static func parse(_ bytes: [UInt8], source: String = "<inline>", baseDirectory: String = ".") throws(ConfigurationError) -> LinkhostConfiguration {
        let document: JSONValue
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            throw ConfigurationError(source: source, problems: [
                ConfigurationProblem(path: error.path, problem: "the file is not valid JSON (line \(error.line), column \(error.column)): \(error.message)", fix: "correct the JSON syntax at that line; `python3 -m json.tool \(source)` shows the same spot")
            ])
        }
        let problems = ConfigurationProblems()
        let configuration = ConfigurationReader(problems: problems, baseDirectory: baseDirectory).read(document)
        guard problems.isEmpty, let configuration else {
            throw ConfigurationError(source: source, problems: problems.items)
        }
        return configuration
    }
}

/// Walks the document and builds the configuration, recording problems as it goes.
private struct ConfigurationReader {
    let problems: ConfigurationProblems
    let baseDirectory: String

    func read(_ document: JSONValue) -> LinkhostConfiguration? {
        guard let root = ConfigObjectReader(document, at: .root, problems: problems, what: "the configuration", allowedKeys: ["server", "sites", "log"]) else {
            return nil
        }
        let serverReader = root.object("server", what: "the server settings", allowedKeys: ["listen", "unknownHost", "aasaCacheControl", "publicDirectory", "publicScheme", "limits", "tls"])
        var server = readServer(serverReader, siteIDs: siteIDs(in: root.value("sites")))
        server.publicDirectory = resolve(server.publicDirectory)
        let languagesAvailable = availableLanguages(in: server.publicDirectory)
        var sites: [SiteConfiguration] = []
        if let list = root.value("sites") {
            if case .array(let elements) = list, !elements.isEmpty {
                for (index, element) in elements.enumerated() {
                    if let site = readSite(element, at: JSONPath.root.appending("sites").appending(index), availableLanguages: languagesAvailable, publicDirectory: server.publicDirectory) {
                        sites.append(site)
                    }
                }
            } else {
                problems.add(JSONPath.root.appending("sites"), "\"sites\" must be a non-empty array of site objects", fix: "add at least one site: { \"id\": ..., \"hosts\": [...], \"app\": {...}, \"links\": [...] }")
            }
        } else {
            problems.add(JSONPath.root.appending("sites"), "\"sites\" is missing", fix: "add \"sites\": [ { \"id\": ..., \"hosts\": [...], \"app\": {...}, \"links\": [...] } ]")
        }
        checkUniqueness(sites)
        let log = readLog(root.object("log", what: "the log settings", allowedKeys: ["enabled", "database", "clientAddress", "retentionDays", "trackedParameters", "queueCapacity"]))
        return LinkhostConfiguration(server: server, sites: sites, log: log, baseDirectory: baseDirectory)
    }

    private func readLog(_ reader: ConfigObjectReader?) -> LogSettings {
        var settings = LogSettings(databasePath: resolve(LogSettings.defaultDatabase))
        guard let reader else { return settings }
        settings.enabled = reader.bool("enabled", default: true)
        if let path = reader.string("database", fix: "write the SQLite file's path, e.g. \"data/linkhost.sqlite\"") {
            if path.isEmpty {
                problems.add(reader.path.appending("database"), "the database path is empty", fix: "write e.g. \"data/linkhost.sqlite\"")
            } else {
                settings.databasePath = resolve(path)
            }
        }
        if let policy = reader.string("clientAddress", fix: "use one of \(ClientAddressPolicy.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))") {
            if let chosen = ClientAddressPolicy(rawValue: policy) {
                settings.clientAddress = chosen
            } else {
                problems.add(reader.path.appending("clientAddress"), "\"\(policy)\" is not a client-address policy", fix: "use \"truncated\" (IPv4 /24, IPv6 /48) or \"omit\" (store none)")
            }
        }
        settings.retentionDays = reader.integer("retentionDays", in: 0...36_500, default: settings.retentionDays, meaning: "days rows are kept; 0 keeps them all")
        settings.queueCapacity = reader.integer("queueCapacity", in: 1024...10_000_000, default: settings.queueCapacity, meaning: "records waiting for the writer at most")
        if let names = reader.strings("trackedParameters", fix: "list query parameter names to keep, e.g. [\"from\"]") {
            settings.trackedParameters = []
            for entry in names {
                if entry.text.isEmpty || entry.text.hasPrefix("utm_") {
                    problems.add(entry.path, entry.text.isEmpty ? "the name is empty" : "\"\(entry.text)\" is a UTM parameter, which has its own column already", fix: "remove it")
                } else {
                    settings.trackedParameters.append(entry.text)
                }
            }
        }
        return settings
    }

    /// Site ids as written, for checking `server.unknownHost` before the sites are read.
    private func siteIDs(in sites: JSONValue?) -> [String] {
        sites?.arrayElements?.compactMap { $0["id"]?.stringValue } ?? []
    }

    private func resolve(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// Languages with a strings file (`locales/<code>.json`) in the public folder.
    private func availableLanguages(in publicDirectory: String) -> [String] {
        let folder = (publicDirectory as NSString).appendingPathComponent("locales")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    // MARK: server

    func readServer(_ reader: ConfigObjectReader?, siteIDs: [String]) -> ServerSettings {
        var settings = ServerSettings.defaults
        guard let reader else { return settings }
        if let listen = reader.object("listen", what: "the listen settings", allowedKeys: ["address", "port"]) {
            if let address = listen.string("address", fix: "use an IP address such as \"0.0.0.0\" (all IPv4), \"::\" (all IPv6 and IPv4) or \"127.0.0.1\"") {
                if isIPLiteral(address) || address == "localhost" {
                    settings.listenAddress = address
                } else {
                    problems.add(listen.path.appending("address"), "\"\(address)\" is not an IP address", fix: "use an IP address such as \"0.0.0.0\" (all IPv4), \"::\" (all IPv6 and IPv4) or \"127.0.0.1\"")
                }
            }
            settings.port = listen.integer("port", in: 0...65535, default: settings.port, meaning: "TCP port; 0 picks a free one")
        }
        if let policy = reader.value("unknownHost") {
            switch policy {
            case .string("404"):
                settings.unknownHost = .notFound
            case .string(let id) where siteIDs.contains(id):
                settings.unknownHost = .site(id)
            default:
                let choices = (["\"404\""] + siteIDs.map { "\"\($0)\"" }).joined(separator: ", ")
                problems.add(reader.path.appending("unknownHost"), "\(policy.stringValue.map { "\"\($0)\"" } ?? policy.kindDescription) is neither \"404\" nor the id of a site", fix: "use one of \(choices)")
            }
        }
        if let cacheControl = reader.string("aasaCacheControl", fix: "write a Cache-Control value such as \"public, max-age=3600\"") {
            if cacheControl.isEmpty || cacheControl.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                problems.add(reader.path.appending("aasaCacheControl"), "the value is empty or has control characters", fix: "write a Cache-Control value such as \"public, max-age=3600\"")
            } else {
                settings.aasaCacheControl = cacheControl
            }
        }
        if let folder = reader.string("publicDirectory", fix: "write the folder holding templates/, static/ and locales/, e.g. \"Public\"") {
            if folder.isEmpty {
                problems.add(reader.path.appending("publicDirectory"), "the folder name is empty", fix: "write e.g. \"Public\"")
            } else {
                settings.publicDirectory = folder
            }
        }
        if let scheme = reader.string("publicScheme", fix: "write \"https\" (behind a TLS terminator) or \"http\"") {
            if ["http", "https"].contains(scheme) {
                settings.publicScheme = scheme
            } else {
                problems.add(reader.path.appending("publicScheme"), "\"\(scheme)\" is neither \"https\" nor \"http\"", fix: "write \"https\" (universal links need HTTPS) or \"http\" for local tests")
            }
        }
        if let tls = reader.object("tls", what: "the TLS settings", allowedKeys: ["certificate", "key", "port", "publicPort", "http", "hsts"]) {
            settings.tls = readTLS(tls, listenPort: settings.port)
        }
        if let limits = reader.object("limits", what: "the limits", allowedKeys: ["threads", "connections", "connectionsPerAddress", "connectionTimeoutSeconds", "connectionMemoryBytes", "requestBodyBytes", "shutdownGraceSeconds"]) {
            settings.threads = limits.integer("threads", in: 0...256, default: settings.threads, meaning: "worker threads; 0 means one per processor")
            settings.connectionLimit = limits.integer("connections", in: 1...1_000_000, default: settings.connectionLimit, meaning: "most connections open at once")
            settings.connectionsPerAddress = limits.integer("connectionsPerAddress", in: 0...1_000_000, default: settings.connectionsPerAddress, meaning: "most connections from one client address; 0 turns the limit off, as behind a proxy")
            settings.connectionTimeoutSeconds = limits.integer("connectionTimeoutSeconds", in: 1...3600, default: settings.connectionTimeoutSeconds, meaning: "seconds an idle connection is kept")
            settings.connectionMemoryBytes = limits.integer("connectionMemoryBytes", in: 4096...16_777_216, default: settings.connectionMemoryBytes, meaning: "bytes per connection for the request line and headers")
            settings.requestBodyBytes = limits.integer("requestBodyBytes", in: 0...67_108_864, default: settings.requestBodyBytes, meaning: "largest request body accepted")
            settings.shutdownGraceSeconds = limits.integer("shutdownGraceSeconds", in: 0...600, default: settings.shutdownGraceSeconds, meaning: "seconds a stop waits for requests in flight")
        }
        return settings
    }

    private func readTLS(_ reader: ConfigObjectReader, listenPort: Int) -> TLSSettings? {
        let certificate = reader.string("certificate", required: true, fix: "give the PEM certificate chain's path, e.g. \"certs/rowhni.com.pem\" (linkhost dev-cert makes one)")
        let key = reader.string("key", required: true, fix: "give the PEM private key's path, e.g. \"certs/rowhni.com-key.pem\"")
        let port = reader.integer("port", in: 0...65535, default: 8443, meaning: "HTTPS port")
        let publicPort = reader.has("publicPort") ? reader.integer("publicPort", in: 1...65535, default: port, meaning: "HTTPS port clients reach, for redirects") : nil
        var mode = TLSSettings.PlainHTTP.redirect
        if let text = reader.string("http", fix: "use one of \(TLSSettings.PlainHTTP.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))") {
            if let chosen = TLSSettings.PlainHTTP(rawValue: text) {
                mode = chosen
            } else {
                problems.add(reader.path.appending("http"), "\"\(text)\" is not a plain-HTTP mode", fix: "use \"redirect\" (pages go to HTTPS, the AASA file stays), \"serve\" or \"off\"")
            }
        }
        var hsts: String? = "max-age=31536000"
        if let value = reader.value("hsts") {
            switch value {
            case .string(let text) where !text.isEmpty && !text.utf8.contains(where: { $0 < 0x20 }): hsts = text
            case .bool(false): hsts = nil
            default: problems.add(reader.path.appending("hsts"), "\"hsts\" must be a Strict-Transport-Security value or false", fix: "write e.g. \"max-age=31536000\", or false to send none")
            }
        }
        if port != 0, port == listenPort {
            problems.add(reader.path.appending("port"), "the HTTPS port \(port) is also the plain-HTTP port (server.listen.port)", fix: "use another port, e.g. 8443")
        }
        guard let certificate, let key else { return nil }
        let certificatePath = resolve(certificate)
        let keyPath = resolve(key)
        switch TLSSettings.load(certificatePath: certificatePath, keyPath: keyPath) {
        case .success(let pem):
            return TLSSettings(certificatePath: certificatePath, keyPath: keyPath, certificatePEM: pem.certificate, keyPEM: pem.key, port: port, publicPort: publicPort, plainHTTP: mode, hsts: hsts)
        case .failure(let failure):
            problems.add(reader.path.appending(failure.which == .certificate ? "certificate" : "key"), failure.problem, fix: "check the path (relative to the config file) — `linkhost dev-cert --host <name>` makes a local CA and a certificate")
            return nil
        }
    }

    private func isIPLiteral(_ text: String) -> Bool {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        return inet_pton(AF_INET, text, &ipv4) == 1 || inet_pton(AF_INET6, text, &ipv6) == 1
    }

    // MARK: sites

    static let siteKeys = ["id", "hosts", "app", "languages", "defaultLanguage", "links", "passThrough", "webBaseURL", "previewImage", "aasa"]

    func readSite(_ value: JSONValue, at path: JSONPath, availableLanguages: [String], publicDirectory: String) -> SiteConfiguration? {
        guard let site = ConfigObjectReader(value, at: path, problems: problems, what: "a site", allowedKeys: Self.siteKeys) else {
            return nil
        }
        let before = problems.items.count
        let id = site.string("id", required: true, fix: "give the site a short id of lower-case letters, digits and '-', e.g. \"rowhni\"")
        if let id, id.isEmpty || !id.utf8.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") }) {
            problems.add(path.appending("id"), "\"\(id)\" is not a valid site id", fix: "use lower-case letters, digits and '-', e.g. \"rowhni\"")
        }
        var hosts: [String] = []
        if let entries = site.strings("hosts", required: true, nonEmpty: true, fix: "list the site's host names, e.g. [\"rowhni.com\"]") {
            for entry in entries {
                switch HostName.validate(entry.text) {
                case .success(let host):
                    if hosts.contains(host) {
                        problems.add(entry.path, "\"\(host)\" is listed twice", fix: "remove the repeat")
                    } else {
                        hosts.append(host)
                    }
                case .failure(let problem):
                    problems.add(entry.path, problem.problem, fix: problem.fix)
                }
            }
        }
        let app = readApp(site.object("app", what: "the app", allowedKeys: ["name", "appIDs", "appStoreID", "appStoreURL", "scheme"], required: true))
        let (languages, defaultLanguage) = readLanguages(site, availableLanguages: availableLanguages, publicDirectory: publicDirectory)
        let ruleReader = LinkRuleReader(problems: problems, languages: languages, scheme: app?.scheme)
        let rules = site.value("links").map { ruleReader.readRules($0, at: path.appending("links")) } ?? []
        let passThrough = site.value("passThrough").map { ruleReader.readPassThrough($0, at: path.appending("passThrough")) } ?? []
        let router = LinkRouter(rules: rules, passThrough: passThrough)
        checkExamples(router, at: path.appending("links"))
        let webBaseURL = site.string("webBaseURL", fix: "write the web version's base URL, e.g. \"https://forums.somethingawful.com\"")
        if let webBaseURL, !(webBaseURL.hasPrefix("https://") || webBaseURL.hasPrefix("http://")) || webBaseURL.contains("?") || webBaseURL.contains("#") {
            problems.add(path.appending("webBaseURL"), "\"\(webBaseURL)\" is not an http(s) base URL", fix: "write scheme and host (and an optional path), e.g. \"https://forums.somethingawful.com\"")
        }
        let previewImage = site.string("previewImage", fix: "write the image's path under static/, e.g. \"/static/og/rowhni.png\"")
        if let previewImage, !previewImage.hasPrefix("/static/") {
            problems.add(path.appending("previewImage"), "\"\(previewImage)\" is not under /static/", fix: "put the image in \(publicDirectory)/static/ and write its URL path, e.g. \"/static/og/rowhni.png\"")
        }
        let aasa = app.flatMap { readAASA(site, rules: rules, appIDs: $0.appIDs) }
        guard problems.items.count == before, let id, let app, let aasa else { return nil }
        let configuration = SiteConfiguration(
            id: id, hosts: hosts, app: app, languages: languages, defaultLanguage: defaultLanguage, router: router,
            webBaseURL: webBaseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }, previewImage: previewImage,
            aasa: aasa.0, aasaPolicy: aasa.1
        )
        // The file and the pages must agree before anything is served.
        let disagreements = SiteAgreement.check(configuration, at: path)
        disagreements.forEach(problems.add)
        return disagreements.isEmpty ? configuration : nil
    }

    private func readLanguages(_ site: ConfigObjectReader, availableLanguages: [String], publicDirectory: String) -> (languages: [String], default: String) {
        var languages = ["en"]
        if let entries = site.strings("languages", nonEmpty: true, fix: "list page languages in order of preference, e.g. [\"de\", \"en\"]") {
            languages = []
            for entry in entries {
                let code = entry.text.lowercased()
                if !availableLanguages.contains(code) {
                    problems.add(entry.path, "there are no page strings for \"\(entry.text)\" (\(publicDirectory)/locales/\(code).json is missing)", fix: "use one of \(availableLanguages.joined(separator: ", ")), or add that strings file")
                } else if languages.contains(code) {
                    problems.add(entry.path, "\"\(code)\" is listed twice", fix: "remove the repeat")
                } else {
                    languages.append(code)
                }
            }
        }
        var defaultLanguage = languages.first ?? "en"
        if let chosen = site.string("defaultLanguage", fix: "name one of the site's languages, e.g. \"de\"") {
            if languages.contains(chosen.lowercased()) {
                defaultLanguage = chosen.lowercased()
            } else {
                problems.add(site.path.appending("defaultLanguage"), "\"\(chosen)\" is not one of the site's languages (\(languages.joined(separator: ", ")))", fix: "use one of them, or add it to \"languages\"")
            }
        }
        return (languages.isEmpty ? ["en"] : languages, defaultLanguage)
    }

    /// Every example must route to its own rule as a page (not a broken link, not another rule).
    private func checkExamples(_ router: LinkRouter, at path: JSONPath) {
        for (ruleIndex, rule) in router.rules.enumerated() {
            for (exampleIndex, example) in rule.examples.enumerated() {
                let request = HTTPRequestTargetParts(example)
                let examplePath = path.appending(ruleIndex).appending("examples").appending(exampleIndex)
                switch router.route(rawPath: request.rawPath, rawQuery: request.rawQuery) {
                case .page(let match) where match.rule.name == rule.name:
                    continue
                case .page(let match):
                    problems.add(examplePath, "\"\(example)\" opens rule \"\(match.rule.name)\", an earlier rule, not \"\(rule.name)\"", fix: "move \"\(rule.name)\" before \"\(match.rule.name)\", or make the earlier rule narrower")
                case .badLink(let other, let problem):
                    problems.add(examplePath, "\"\(example)\" is a broken link of rule \"\(other.name)\": \(problem)", fix: "correct the example, or the rule's parameters")
                case .noRule:
                    problems.add(examplePath, "\"\(example)\" matches no rule", fix: "correct the example or the rule's path")
                }
            }
        }
    }

    func readApp(_ reader: ConfigObjectReader?) -> AppConfiguration? {
        guard let reader else { return nil }
        let name = reader.string("name", required: true, fix: "add the app's display name, e.g. \"name\": \"Rowhni\"")
        if let name, name.trimmingCharacters(in: " ").isEmpty {
            reader.problems.add(reader.path.appending("name"), "the app name is empty", fix: "write the name people know the app by")
        }
        var appIDs: [String] = []
        if let entries = reader.strings("appIDs", required: true, nonEmpty: true, fix: "list the app's IDs as \"<Team ID>.<bundle ID>\", e.g. [\"ABCDE12345.com.example.app\"]") {
            for entry in entries {
                // A team prefix that is not ten characters (the seeds' TEAMID) is only a warning, for `check`.
                if case .malformed(let problem) = AppIDFormat.check(entry.text) {
                    reader.problems.add(entry.path, problem, fix: "write \"<Team ID>.<bundle ID>\", e.g. \"ABCDE12345.com.example.app\" (the Team ID is on developer.apple.com › Membership)")
                } else {
                    appIDs.append(entry.text)
                }
            }
        }
        let storeID = reader.string("appStoreID", fix: "write the numeric App Store id as a string, e.g. \"567936609\"")
        if let storeID, storeID.isEmpty || storeID.count > 12 || !storeID.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            reader.problems.add(reader.path.appending("appStoreID"), "\"\(storeID)\" is not a numeric App Store id", fix: "use the digits after \"id\" in the app's App Store URL, e.g. \"567936609\"")
        }
        let storeURL = reader.string("appStoreURL", fix: "write an https URL, e.g. the app's TestFlight invitation")
        if let storeURL, !storeURL.hasPrefix("https://") {
            reader.problems.add(reader.path.appending("appStoreURL"), "\"\(storeURL)\" is not an https URL", fix: "write the full https URL of the app's store page")
        }
        let scheme = reader.string("scheme", required: true, fix: "add the app's custom URL scheme without \"://\", e.g. \"rowhni\"")
        if let scheme {
            let bytes = Array(scheme.utf8)
            let valid = !bytes.isEmpty && (bytes[0] >= UInt8(ascii: "a") && bytes[0] <= UInt8(ascii: "z"))
                && bytes.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
            if !valid {
                reader.problems.add(reader.path.appending("scheme"), "\"\(scheme)\" is not a URL scheme", fix: "write the scheme alone in lower case (letters, digits, '+', '-', '.'), e.g. \"rowhni\", not \"rowhni://\"")
            }
            if ["http", "https"].contains(scheme) {
                reader.problems.add(reader.path.appending("scheme"), "\"\(scheme)\" is the web's scheme, not the app's", fix: "write the app's own scheme from its Info.plist CFBundleURLSchemes, e.g. \"awful\"")
            }
        }
        guard let name, let scheme else { return nil }
        return AppConfiguration(name: name, appIDs: appIDs, appStoreID: storeID, appStoreURL: storeURL, scheme: scheme)
    }

    static let aasaKeys = ["extraComponents", "webcredentials", "appclips", "activitycontinuation", "legacyPaths", "file", "allowComponentsWithoutPages"]

    /// The site's AASA file: generated from the rules plus the `aasa` options, or read from
    /// `aasa.file` and served byte for byte.
    func readAASA(_ site: ConfigObjectReader, rules: [LinkRule], appIDs: [String]) -> (AASAFile, AASAPolicy)? {
        let options = site.object("aasa", what: "the AASA options", allowedKeys: Self.aasaKeys)
        let path = options?.path ?? site.path.appending("aasa")
        let allowsUnserved = options?.bool("allowComponentsWithoutPages", default: false) ?? false
        if let options, let fileEntry = options.string("file", fix: "write the path of the AASA file, relative to the config file's folder") {
            if options.members.contains(where: { !$0.key.hasPrefix("//") && !["file", "allowComponentsWithoutPages"].contains($0.key) }) {
                problems.add(path.appending("file"), "\"file\" is combined with generation options", fix: "keep \"file\" alone (the file is served as it is), or remove it to generate the file from the links")
            }
            return readAASAFile(fileEntry, at: path.appending("file")).map { ($0, AASAPolicy(extraComponentCount: 0, isGenerated: false, allowsComponentsWithoutPages: allowsUnserved)) }
        }
        var generation = AASAGenerator.Options()
        if let options {
            generation.legacyPaths = options.bool("legacyPaths", default: true)
            if let extra = options.value("extraComponents") {
                if case .array(let components) = extra {
                    for (index, component) in components.enumerated() where component.objectMembers == nil {
                        problems.add(path.appending("extraComponents").appending(index), "a component must be an object, found \(component.kindDescription)", fix: "write e.g. { \"/\": \"/admin/*\", \"exclude\": true }")
                    }
                    generation.extraComponents = components.filter { $0.objectMembers != nil }
                } else {
                    problems.add(path.appending("extraComponents"), "\"extraComponents\" must be an array of components", fix: "write e.g. [ { \"/\": \"/admin/*\", \"exclude\": true } ]")
                }
            }
            for section in ["webcredentials", "appclips", "activitycontinuation"] {
                guard let value = options.value(section) else { continue }
                guard value.objectMembers != nil else {
                    problems.add(path.appending(section), "\"\(section)\" must be an object, found \(value.kindDescription)", fix: "write { \"apps\": [\"TEAMID.bundle.id\"] }")
                    continue
                }
                generation.passThroughSections.append(JSONMember(section, value))
            }
        }
        if rules.isEmpty && generation.extraComponents.isEmpty && generation.passThroughSections.isEmpty {
            problems.add(site.path.appending("links"), "the site has no link rules and no AASA content", fix: "add \"links\": [ ... ], or \"aasa\": { \"file\": \"...\" }")
            return nil
        }
        let document = AASAGenerator.document(rules: rules, appIDs: appIDs, options: generation)
        let bytes = document.serialized(.pretty(indent: 4))
        guard checkAASA(document, size: bytes.count, at: path) else { return nil }
        let policy = AASAPolicy(extraComponentCount: generation.extraComponents.count, isGenerated: true, allowsComponentsWithoutPages: allowsUnserved)
        return (AASAFile(bytes: bytes, document: document, origin: "generated"), policy)
    }

    private func readAASAFile(_ relative: String, at path: JSONPath) -> AASAFile? {
        guard !relative.isEmpty else {
            problems.add(path, "the path is empty", fix: "write the path of the AASA file, relative to the config file's folder")
            return nil
        }
        let resolved = resolve(relative)
        guard let data = FileManager.default.contents(atPath: resolved) else {
            problems.add(path, "cannot read \(resolved)", fix: "check the path (it is relative to the config file's folder) and the file's permissions")
            return nil
        }
        let bytes = Array(data)
        guard bytes.count <= AASAFile.maximumSize else {
            problems.add(path, "\(resolved) is \(bytes.count) bytes; iOS refuses AASA files over \(AASAFile.maximumSize) bytes (128 KB)", fix: "remove rules or merge them with wildcards until the file is at most 128 KB")
            return nil
        }
        let document: JSONValue
        do {
            document = try JSONParser(duplicateKeys: .keepAll).parse(bytes)  // Apple's reading: the last duplicate wins
        } catch {
            problems.add(path, "\(resolved) is not valid JSON (line \(error.line), column \(error.column)): \(error.message)", fix: "correct the file; iOS ignores an AASA file that does not parse")
            return nil
        }
        guard checkAASA(document, size: bytes.count, at: path) else { return nil }
        return AASAFile(bytes: bytes, document: document, origin: resolved)
    }

    /// The checks the server itself needs before serving an AASA file: an object with at least one
    /// service, and no larger than iOS accepts. (`linkhost check` looks much deeper.)
    private func checkAASA(_ document: JSONValue, size: Int, at path: JSONPath) -> Bool {
        guard let members = document.objectMembers else {
            problems.add(path, "the AASA document must be a JSON object, found \(document.kindDescription)", fix: "write { \"applinks\": { \"details\": [ ... ] } }")
            return false
        }
        let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
        guard members.contains(where: { services.contains($0.key) }) else {
            problems.add(path, "the AASA document has none of the services \(services.joined(separator: ", "))", fix: "add at least \"applinks\": { \"details\": [ ... ] }")
            return false
        }
        guard size <= AASAFile.maximumSize else {
            problems.add(path, "the AASA file would be \(size) bytes; iOS refuses files over \(AASAFile.maximumSize) bytes (128 KB)", fix: "remove rules or merge them with wildcards until the file is at most 128 KB")
            return false
        }
        return true
    }

    // MARK: cross-site checks

    func checkUniqueness(_ sites: [SiteConfiguration]) {
        var idOwner: [String: Int] = [:]
        var hostOwner: [String: (site: Int, host: Int)] = [:]
        for (siteIndex, site) in sites.enumerated() {
            let sitePath = JSONPath.root.appending("sites").appending(siteIndex)
            if let first = idOwner[site.id] {
                problems.add(sitePath.appending("id"), "the id \"\(site.id)\" is also used by sites[\(first)]", fix: "give every site its own id")
            } else {
                idOwner[site.id] = siteIndex
            }
            for (hostIndex, host) in site.hosts.enumerated() {
                if let owner = hostOwner[host] {
                    problems.add(sitePath.appending("hosts").appending(hostIndex), "\"\(host)\" is also listed at sites[\(owner.site)].hosts[\(owner.host)]", fix: "list each host under one site only; one host serves one AASA file")
                } else {
                    hostOwner[host] = (siteIndex, hostIndex)
                }
            }
        }
    }
}
