import Foundation
import LinkRules
import Mustache
import OrderedJSON

/// The dashboard's files under `<public>/admin/`: the Mustache templates (`login`, `dashboard`),
/// the strings per language (`locales/<lang>.json`) and the stylesheet, read once at start-up so
/// a missing or broken file stops the server with its name instead of failing a page later.
struct AdminPages: Sendable {
    static let languages = ["en", "de"]
    static let requiredKeys =
        [
            "login_title", "token_label", "login_button", "login_hint", "login_wrong", "login_limited", "login_needed", "dashboard_title",
            "logout", "since", "until", "now", "site", "all", "kind", "rule", "campaign", "apply", "range", "views", "app_opens", "aasa_fetches",
            "chart_title", "chart_label", "month_names", "funnel_title", "funnel_views", "funnel_open_clicks", "funnel_store_clicks",
            "funnel_copies", "funnel_app_opens", "funnel_opens_after_view", "funnel_bypass_opens", "funnel_installs", "funnel_previews", "bypass_title",
            "bypass_intro",
            "bypass_none", "bypass_by_rule", "bypass_by_app", "bypass_by_referrer", "bypass_covered", "bypass_not_covered", "bypass_in_app",
            "bypass_no_referrer", "bypass_same_domain", "bypass_referrer", "top_campaigns", "top_sources", "top_rules", "top_clients",
            "none_value", "recent_title", "show_whole", "export_csv", "export_ndjson", "none_yet", "col_time", "col_kind", "col_status",
            "col_link", "col_campaign", "col_source", "col_client", "col_referrer", "col_agent", "rendered_in", "bad_filter", "digit_group", "decimal_mark",
        ] + ([Dashboard.everyKind] + Dashboard.kindChoices.map(\.rawValue)).map { "kind_" + $0 }
    /// The page templates, and `value`, the partial that shows one logged value in a cell.
    static let templates = ["login", "dashboard", "value"]

    private let library: MustacheLibrary
    private let strings: [String: [String: String]]
    let stylesheet: [UInt8]
    /// The sites' icon (`<public>/static/icon.png`), shown as the dashboard's favicon; empty without one.
    let icon: [UInt8]

    init(folder: String) throws(AdminSetupError) {
        var library = MustacheLibrary()
        for name in Self.templates {
            let path = folder + "/templates/\(name).mustache"
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw AdminSetupError("cannot read the admin template \(path)")
            }
            do {
                try library.register(text, named: name)
            } catch {
                throw AdminSetupError("the admin template \(path) does not parse: \(error)")
            }
        }
        var strings: [String: [String: String]] = [:]
        for language in Self.languages {
            let path = folder + "/locales/\(language).json"
            guard let data = FileManager.default.contents(atPath: path), let document = try? JSONParser().parse(Array(data)),
                let members = document.objectMembers
            else { throw AdminSetupError("cannot read \(path) as a JSON object of strings") }
            var table: [String: String] = [:]
            for member in members where !member.key.hasPrefix("//") { table[member.key] = member.value.stringValue }
            let missing = Self.requiredKeys.filter { table[$0] == nil }
            guard missing.isEmpty else { throw AdminSetupError("\(path) lacks \(missing.joined(separator: ", "))") }
            strings[language] = table
        }
        guard let stylesheet = FileManager.default.contents(atPath: folder + "/admin.css") else {
            throw AdminSetupError("cannot read the admin stylesheet \(folder)/admin.css")
        }
        self.library = library
        self.strings = strings
        self.stylesheet = Array(stylesheet)
        icon = FileManager.default.contents(atPath: folder + "/../static/icon.png").map { Array($0) } ?? []
    }

    /// Every string of `language`, for templates (`{{s.key}}`).
    func strings(_ language: String) -> [String: String] { strings[language] ?? strings["en"] ?? [:] }

    /// One string with `{placeholders}` filled (plain text; the templates escape it).
    func text(_ key: String, _ language: String, _ values: [String: String] = [:]) -> String {
        TextTemplate.fill(strings(language)[key] ?? key, with: values)
    }

    /// The sign-in page. `prompt` says why it is shown and reads as plain text; `error` is a real
    /// failure (a wrong token, too many tries) and is shown as an alert.
    func loginPage(language: String, prompt: String? = nil, error: String? = nil) -> String {
        var context: [String: Any] = ["lang": language, "s": strings(language)]
        if let prompt { context["prompt"] = prompt }
        if let error { context["error"] = error }
        return render("login", context)
    }

    func render(_ template: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: template) ?? ""
    }
}

/// A problem with the admin files found at start-up.
public struct AdminSetupError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
