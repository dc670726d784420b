import OrderedJSON

/// Reads a site's `languages` and `defaultLanguage`, checking each language has page strings.
struct SiteLanguagesParser {
    let problems: ConfigurationProblems
    let publicFolder: PublicFolder

    /// The languages as written (lower case, in order, without repeats; `["en"]` when left out)
    /// and the default. A language without strings is reported, but stays in the list the texts
    /// are checked against, so they are not all reported for mentioning it. `languages` is `nil`
    /// when the list cannot be read at all; the texts' languages are then not checked.
    func read(_ site: ConfigObjectReader) -> (languages: [String]?, defaultLanguage: String) {
        var languages: [String]? = ["en"]
        if site.has("languages") {
            languages = site.strings("languages", nonEmpty: true, fix: "list page languages in order of preference, e.g. [\"de\", \"en\"]").map(readEntries)
        }
        var defaultLanguage = languages?.first ?? "en"
        if let chosen = site.string("defaultLanguage", fix: "name one of the site's languages, e.g. \"de\"") {
            if let languages, !languages.contains(chosen.lowercased()) {
                problems.add(
                    site.path.appending("defaultLanguage"), "\"\(chosen)\" is not one of the site's languages (\(languages.joined(separator: ", ")))",
                    fix: "use one of them, or add it to \"languages\"")
            } else {
                defaultLanguage = chosen.lowercased()
            }
        }
        return (languages, defaultLanguage)
    }

    private func readEntries(_ entries: [(text: String, path: JSONPath)]) -> [String] {
        var languages: [String] = []
        for entry in entries {
            let code = entry.text.lowercased()
            if languages.contains(code) {
                problems.add(entry.path, "\"\(code)\" is listed twice", fix: "remove the repeat")
                continue
            }
            languages.append(code)
            // Without a locales/ folder the folder is the problem, reported once by the server settings.
            if let available = publicFolder.languages, !available.contains(code) {
                let file = "\(publicFolder.path)/locales/\(code).json"
                let fix =
                    available.isEmpty
                    ? "add \(file) (copy locales/en.json from linkhost's Public folder and translate it)"
                    : "use one of \(available.joined(separator: ", ")), or add \(file)"
                problems.add(entry.path, "there are no page strings for \"\(entry.text)\" (\(file) is missing)", fix: fix)
            }
        }
        return languages
    }
}
