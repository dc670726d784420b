import Foundation
import LinkRules
import OrderedJSON

/// The fixed texts of pages ("Open in {app}", error sentences) per language, read from
/// `<public>/locales/<language>.json` so they can be corrected or extended without a rebuild.
struct PageStrings: Sendable {
    /// Every key a page may use; a strings file lacking one stops the server at start-up.
    static let requiredKeys =
        [
            "open_in_app", "get_app", "get_app_hint", "get_app_hint_android", "other_platform", "scan_qr", "copy_link", "copied", "copy_hint", "code_label",
            "continue_on_web",
            "bad_link_title", "missing_parameter", "malformed_parameter", "repeated_parameter", "wrong_value",
            "unexpected_parameter", "bad_link_hint", "not_found_title", "not_found_text", "not_found_hint", "desktop_hint", "default_noun", "footer",
        ] + ParameterType.allCases.map { "type_\($0.rawValue)" }

    private let table: [String: [String: String]]

    /// Reads the strings of `languages` from `folder`, or explains what is missing.
    static func load(from folder: String, languages: [String]) throws(PageSetupError) -> PageStrings {
        var table: [String: [String: String]] = [:]
        for language in languages {
            let file = (folder as NSString).appendingPathComponent("\(language).json")
            guard let data = FileManager.default.contents(atPath: file) else {
                throw PageSetupError("cannot read \(file); every site language needs a strings file there")
            }
            let document: JSONValue
            do {
                document = try JSONParser().parse(Array(data))
            } catch {
                throw PageSetupError("\(file) is not valid JSON: \(error)")
            }
            guard let members = document.objectMembers else { throw PageSetupError("\(file) must hold a JSON object of strings") }
            var strings: [String: String] = [:]
            for member in members where !member.key.hasPrefix("//") {
                guard let text = member.value.stringValue else { throw PageSetupError("\(file): \"\(member.key)\" must be a string") }
                strings[member.key] = text
            }
            let missing = requiredKeys.filter { strings[$0] == nil }
            guard missing.isEmpty else {
                throw PageSetupError("\(file) lacks \(missing.map { "\"\($0)\"" }.joined(separator: ", ")); copy them from locales/en.json and translate")
            }
            table[language] = strings
        }
        return PageStrings(table: table)
    }

    /// The string `key` in `language` with `{placeholders}` filled (plain text, not yet escaped).
    func text(_ key: String, _ language: String, _ values: [String: String] = [:]) -> String {
        let template = table[language]?[key] ?? table.values.first?[key] ?? key
        return TextTemplate.fill(template, with: values)
    }
}

/// A problem with the page files (templates, strings, static files) found at start-up.
public struct PageSetupError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
