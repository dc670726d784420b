import Foundation
import LinkhostKit
import TestSupport
import Testing

/// A mistake is reported once, where it is, and what merely follows from it is not reported too.
@Suite("Configuration: root causes only")
struct RootCauseConfigurationTests {
    /// The shipped config with `edits` applied to its text, checked from the repository's root.
    private func shippedProblems(_ edits: [(String, String)]) throws -> [String] {
        var text = try String(contentsOfFile: ProjectPaths.shippedConfig, encoding: .utf8)
        for (original, replacement) in edits {
            #expect(text.contains(original), "the shipped config no longer has \(original)")
            text = text.replacingOccurrences(of: original, with: replacement)
        }
        return problems(in: text).map(\.description)
    }

    /// README's bad-config example, exactly: two mistakes, two problems.
    @Test func aBadSchemeIsOneProblemWithAFixThatIsAScheme() throws {
        let found = try shippedProblems([("\"scheme\": \"rowhni\"", "\"scheme\": \"rowhni://\""), ("\"connections\": 2048", "\"conections\": 2048")])
        #expect(
            found == [
                "server.limits.conections: unknown key \"conections\" in the limits. Fix: did you mean \"connections\"? Allowed keys: threads, connections, connectionsPerAddress, connectionTimeoutSeconds, connectionMemoryBytes, requestBodyBytes, shutdownGraceSeconds, drainSeconds, headSeconds, bodyBytesPerSecond",
                "sites[0].app.scheme: \"rowhni://\" is not a URL scheme. Fix: write \"rowhni\", the scheme alone without \"://\"",
            ])
    }

    @Test(arguments: [
        ("Rowhni", "write \"rowhni\", in lower case"),
        ("rowhni:", "write \"rowhni\", the scheme alone without \"://\""),
        ("a b", "write the scheme alone in lower case: a letter, then letters, digits, '+', '-' or '.', e.g. \"rowhni\""),
    ])
    func aBadSchemeIsReportedOnce(scheme: String, fix: String) throws {
        let found = try shippedProblems([("\"scheme\": \"rowhni\"", "\"scheme\": \"\(scheme)\"")])
        #expect(found == ["sites[0].app.scheme: \"\(scheme)\" is not a URL scheme. Fix: \(fix)"])
    }

    @Test func rulesThatDoNotReadDoNotMakeTheSiteEmpty() {
        let site = exampleSite.replacingOccurrences(of: #"{"type": "id"}"#, with: #"{"type": "identifier"}"#)
        let found = problems(in: configText(sites: [site]))
        #expect(found.map(\.path.description) == ["sites[0].links[0].params.id.type"])
    }

    @Test func aConfigAwayFromThePublicFolderIsOneProblemNamingIt() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("config.json", try String(contentsOfFile: ProjectPaths.shippedConfig, encoding: .utf8))
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(error.problems.count == 1, "\(error)")
        let problem = try #require(error.problems.first)
        #expect(problem.path.description == "server.publicDirectory")
        #expect(problem.problem.hasPrefix("the public folder \(folder.path)/Public does not exist"))
        #expect(problem.fix.contains("copy linkhost's Public folder next to the config file"))
    }

    @Test func theDefaultPublicFolderSaysItIsTheDefault() throws {
        let folder = try TemporaryDirectory()
        let found = problems(in: configText(), baseDirectory: folder.path)
        #expect(found.count == 1)
        #expect(found.first?.problem.contains("\(folder.path)/Public (the default \"Public\", next to the config file) does not exist") == true)
    }

    @Test func aPublicFolderWithoutLocalesIsOneProblem() throws {
        let folder = try TemporaryDirectory()
        try folder.write("Public/templates/page.mustache", "x")
        let site = exampleSite.replacingOccurrences(of: #""app": {"#, with: #""languages": ["de", "en"], "defaultLanguage": "de", "app": {"#)
        let found = problems(in: configText(sites: [site]), baseDirectory: folder.path)
        #expect(
            found.map(\.description) == [
                "server.publicDirectory: the public folder \(folder.path)/Public (the default \"Public\", next to the config file) has no locales/ folder. Fix: copy locales/ from linkhost's Public folder into it, or point server.publicDirectory at a complete copy"
            ])
    }

    /// The languages a fix offers are the ones there are strings for; with none, it says what to add.
    @Test func aLanguageWithoutStringsIsOneProblemNamingTheRealChoices() throws {
        let site = exampleSite.replacingOccurrences(of: #""app": {"#, with: #""languages": ["fr", "en"], "defaultLanguage": "fr", "app": {"#)
        let found = problems(in: configText(sites: [site]))
        #expect(
            found.map(\.description) == [
                "sites[0].languages[0]: there are no page strings for \"fr\" (\(ProjectPaths.root)/Public/locales/fr.json is missing). Fix: use one of de, en, or add \(ProjectPaths.root)/Public/locales/fr.json"
            ])

        let folder = try TemporaryDirectory()
        try folder.write("Public/templates/page.mustache", "x")
        try FileManager.default.createDirectory(atPath: folder.path + "/Public/locales", withIntermediateDirectories: true)
        let none = problems(in: configText(sites: [site]), baseDirectory: folder.path)
        #expect(none.count == 2)
        #expect(none.allSatisfy { $0.fix.hasPrefix("add \(folder.path)/Public/locales/") })
        #expect(!none.contains { $0.fix.contains("one of ,") || $0.fix.contains("one of  ") })
    }

    @Test func aPlaceholderWhereNoParameterCanBeShownSaysSo() {
        let site = exampleSite.replacingOccurrences(of: #""title": "Item {id}""#, with: #""title": "Item {id}", "noun": "item {id}""#)
        let found = problems(in: configText(sites: [site]))
        #expect(
            found.map(\.description) == [
                "sites[0].links[0].noun: {id} is not a parameter of this rule. Fix: remove {id}: there is no parameter it could show here"
            ])
    }
}
