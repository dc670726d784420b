import OrderedJSON

/// Reads a site's `languages` and `defaultLanguage`, checking each language has page strings.
struct SiteLanguagesParser {
    let problems: ConfigurationProblems
    /// Languages with a strings file (`locales/<code>.json`) in the public folder.
    let availableLanguages: [String]
    let publicDirectory: String

    func read(_ site: ConfigObjectReader) -> (languages: [String], defaultLanguage: String) {
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
}
