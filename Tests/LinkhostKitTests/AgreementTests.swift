import AASAKit
import Foundation
import LinkRules
import LinkhostKit
import TestSupport
import Testing

/// The AASA file and the fallback routes come from one list of rules; these tests check, with
/// Apple's matching rules (AASAKit), that they agree — on every table row and on random links.
@Suite("The AASA file and the fallback pages agree")
struct AgreementTests {
    let configuration: LinkhostConfiguration

    init() throws { configuration = try shippedConfiguration() }

    @Test(arguments: ProductTables.rows)
    func everyTableRowOpensTheAppThroughItsRulesOwnComponent(row: TableRow) throws {
        let explanation = try LinkExplanation.explain("https://\(row.host)\(row.target)", configuration: configuration)
        let site = try #require(configuration.sites.first { $0.lists(host: row.host) })
        let ruleIndex = try #require(site.router.rules.firstIndex { $0.name == row.rule })
        #expect(explanation.decision == .match)
        #expect(explanation.detailsIndex == 0)
        #expect(explanation.componentIndex == ruleIndex)
        #expect(explanation.page == .page(rule: row.rule, appURL: row.appURL))
        #expect(explanation.appIDs == site.app.appIDs)
    }

    /// linkhost's checker has nothing to say about the files linkhost generates, with the legacy
    /// form for iOS 12 on (the default) or off — but the seeds' placeholder team ID (AASA011),
    /// which the README's first steps tell a user to replace.
    @Test(arguments: [true, false])
    func theGeneratedFilesPassTheirOwnChecker(legacyPaths: Bool) throws {
        for file in [ProjectPaths.shippedConfig, ProjectPaths.root + "/Tests/Fixtures/textbook.json"] {
            let configuration = try shippedConfiguration(from: file) { document in
                let sites = (document["sites"]?.arrayElements ?? []).map { $0.setting("aasa.legacyPaths", to: .bool(legacyPaths)) }
                return document.setting("sites", to: .array(sites)).setting("server.publicDirectory", to: .string(ProjectPaths.root + "/Public"))
            }
            for site in configuration.sites {
                let findings = LinkhostCheck.check(aasaBytes: site.aasa.bytes).filter { $0.code != "AASA011" }
                #expect(findings.isEmpty, "\(site.id): \(findings.map(\.description))")
                #expect(String(decoding: site.aasa.bytes, as: UTF8.self).contains("\"paths\"") == legacyPaths, "\(site.id)")
            }
        }
    }

    /// Random links over each site's paths and parameter names (valid, invalid, encoded, repeated,
    /// empty values): whenever a rule's component matches on the device, the page is that rule's
    /// (its page, or its broken-link page for a bad value); whenever nothing matches, the page is a
    /// 404 or a broken link that names what is missing — never a page of a rule.
    @Test func randomLinksAgreeWithAppleMatching() throws {
        var generator = SeededRandom(seed: 0xA5A5)
        var compared = 0
        for site in configuration.sites {
            let matcher = AASAMatcher(try AASADocument(json: site.aasa.document))
            let paths = Array(Set(site.router.rules.map(\.path.aasaPattern))) + ["/", "/other.php", "/addfriend/x"]
            let names = Array(Set(site.router.rules.flatMap { $0.queryParameters.map(\.name) })) + ["noseen", "utm_source", "Code"]
            let values = ["1", "456", "0", "abc", "post", "lastpost", "newpost", "getinfo", "", "TEST123", "pos%74", "1%2B2", "x+y", "%ZZ", "last", "edit"]
            for _ in 0..<3000 {
                let path = paths[generator.next(below: paths.count)] + (generator.next(below: 10) == 0 ? "/" : "")
                let count = generator.next(below: 5)
                let query = (0..<count).map { _ in "\(names[generator.next(below: names.count)])=\(values[generator.next(below: values.count)])" }
                let rawQuery = query.isEmpty ? nil : query.joined(separator: "&")
                let url = "https://\(site.primaryHost)\(path)\(rawQuery.map { "?" + $0 } ?? "")"
                let result = try matcher.match(url, options: AASAMatchOptions(domain: site.primaryHost))
                let route = site.router.route(rawPath: path, rawQuery: rawQuery)
                switch route {
                case .page(let match):
                    #expect(result.decision == .match, "\(url)")
                    #expect(result.componentIndex == site.router.rules.firstIndex(of: match.rule), "\(url)")
                case .badLink(let rule, let problem, _)
                where [.malformed(parameter: problem.parameter, expected: .id), .repeated(parameter: problem.parameter)].contains(problem)
                    || { if case .malformed = problem { true } else { false } }():
                    #expect(result.decision == .match, "\(url)")
                    #expect(result.componentIndex == site.router.rules.firstIndex(of: rule), "\(url)")
                case .badLink, .noRule:
                    #expect(result.decision == .none, "\(url) → \(route)")
                }
                compared += 1
            }
        }
        #expect(compared == 6000)
    }

    /// The site's hosts carry no port, so they cover https's default port only: on another port the
    /// link does not open the app (the page is still served), on :443 it does.
    @Test func aLinkOnAnotherPortDoesNotOpenTheApp() throws {
        let other = try LinkExplanation.explain("https://rowhni.com:8443/addfriend?code=TEST123", configuration: configuration)
        #expect(other.decision == .none)
        #expect(other.explanation.contains("covers only https's default port 443"), "\(other.explanation)")
        #expect(other.page == .page(rule: "addfriend", appURL: "rowhni://addfriend?code=TEST123"))
        let explicit = try LinkExplanation.explain("https://rowhni.com:443/addfriend?code=TEST123", configuration: configuration)
        #expect(explicit.decision == .match)
        #expect(explicit.componentIndex == 0)
    }

    @Test func aServedFileThatMissesARuleIsRefusedWithTheURLAndTheReason() throws {
        // Seed 000's own file served for the forums: it does not open /member.php?userid=123
        // (its component needs action=getinfo), which a rule serves.
        let original = try String(contentsOfFile: ProjectPaths.shippedConfig, encoding: .utf8)
        let patched = original.replacingOccurrences(
            of: "\"passThrough\": {", with: "\"aasa\": {\"file\": \"\(ProjectPaths.root)/Tests/Fixtures/seed000-aasa.json\"},\n            \"passThrough\": {")
        #expect(patched != original)
        let found = problems(in: patched)
        #expect(found.map(\.code) == ["LH001"])
        #expect(found.first?.path.description == "sites[1].links[9].examples[0]")
        #expect(found.first?.problem.contains("\"/member.php?userid=123\" does not open the app") == true)
        #expect(found.first?.problem.contains("query item \"action\" is absent") == true)
    }

    @Test func extraComponentsMustNotOpenLinksWithoutPagesUnlessAllowed() throws {
        let site = exampleSite.replacingOccurrences(
            of: #""links": ["#, with: #""aasa": {"extraComponents": [{"/": "/admin/*"}, {"/": "/x/9*", "exclude": true}]}, "links": ["#)
        let found = problems(in: configText(sites: [site]))
        #expect(found.map(\.code).sorted() == ["LH002", "LH003"] || found.map(\.code).sorted() == ["LH003"])
        #expect(found.contains { $0.code == "LH003" && $0.problem.contains("opens links such as /admin/") })
        let allowed = site.replacingOccurrences(of: #""aasa": {"#, with: #""aasa": {"allowComponentsWithoutPages": true, "#)
        #expect(problems(in: configText(sites: [allowed])).isEmpty)
        let blocking = exampleSite.replacingOccurrences(of: #""links": ["#, with: #""aasa": {"extraComponents": [{"/": "/x/*", "exclude": true}]}, "links": ["#)
        let blocked = problems(in: configText(sites: [blocking]))
        #expect(blocked.map(\.code) == ["LH001"])
        #expect(blocked.first?.problem.contains("is blocked by an exclusion") == true)
    }

    @Test func anEarlierExtraComponentThatTakesARulesLinksIsLH002() throws {
        let site = exampleSite.replacingOccurrences(
            of: #""links": ["#, with: #""aasa": {"allowComponentsWithoutPages": true, "extraComponents": [{"/": "/x/*", "comment": "too broad"}]}, "links": ["#)
        let found = problems(in: configText(sites: [site]))
        #expect(found.map(\.code) == ["LH002"])
        #expect(found.first?.problem.contains("through applinks.details[0].components[0]") == true)
    }
}

/// A tiny deterministic generator for property tests.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
