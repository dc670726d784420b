import OrderedJSON

/// Reads the top level of a config file: `server`, `sites` and `log`, each by its own parser.
struct ConfigurationDocumentParser {
    static let allowedKeys = ["server", "sites", "log"]

    let problems: ConfigurationProblems
    let paths: PathResolver

    /// The values as written; `nil` when the document is not an object.
    func read(_ document: JSONValue) -> UncheckedConfiguration? {
        guard let root = ConfigObjectReader(document, at: .root, problems: problems, what: "the configuration", allowedKeys: Self.allowedKeys) else {
            return nil
        }
        let (server, tls) = ServerSectionParser(problems: problems, paths: paths).read(root)
        let publicFolder = PublicFolder(path: server.publicDirectory)
        let setsPublicDirectory = root.value("server")?["publicDirectory"] != nil
        publicFolder.problems(at: JSONPath.root.appending("server").appending("publicDirectory"), isDefault: !setsPublicDirectory).forEach(problems.add)
        let sites = readSites(root, publicFolder: publicFolder)
        let log = LogSectionParser(problems: problems, paths: paths).read(root)
        return UncheckedConfiguration(server: server, tls: tls, log: log, sites: sites, baseDirectory: paths.baseDirectory)
    }

    private func readSites(_ root: ConfigObjectReader, publicFolder: PublicFolder) -> [ParsedSite] {
        let path = JSONPath.root.appending("sites")
        guard let list = root.value("sites") else {
            problems.add(path, "\"sites\" is missing", fix: "add \"sites\": [ { \"id\": ..., \"hosts\": [...], \"app\": {...}, \"links\": [...] } ]")
            return []
        }
        guard case .array(let elements) = list, !elements.isEmpty else {
            problems.add(
                path, "\"sites\" must be a non-empty array of site objects",
                fix: "add at least one site: { \"id\": ..., \"hosts\": [...], \"app\": {...}, \"links\": [...] }")
            return []
        }
        let parser = SiteParser(problems: problems, paths: paths, publicFolder: publicFolder)
        return elements.enumerated().compactMap { index, element in parser.read(element, index: index) }
    }
}
