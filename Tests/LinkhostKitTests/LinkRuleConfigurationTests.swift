import Foundation
import LinkhostKit
import TestSupport
import Testing

/// Config problems in link rules, each with its path and fix.
@Suite("Link rules in the config")
struct LinkRuleConfigurationTests {
    private func rule(_ body: String) -> String {
        """
        {"id": "example", "hosts": ["example.com"], "languages": ["en", "de"],
         "app": {"name": "Example", "appIDs": ["ABCDE12345.com.example.app"], "scheme": "example"},
         "links": [\(body)]}
        """
    }

    private static let good =
        #"{"name": "item", "path": "/x/{id}", "params": {"id": {"type": "id"}}, "app": "example://items/{id}", "title": {"en": "Item {id}", "de": "Artikel {id}"}, "examples": ["/x/1"]}"#

    @Test func theGoodRuleIsAccepted() throws {
        let configuration = try ConfigurationLoader.parse(Array(configText(sites: [rule(Self.good)]).utf8), baseDirectory: ProjectPaths.root)
        #expect(configuration.sites[0].router.rules.map(\.name) == ["item"])
        #expect(configuration.sites[0].languages == ["en", "de"])
    }

    @Test(arguments: [
        (#""type": "id""#, #""type": "number""#, "sites[0].links[0].params.id.type", "is not a parameter type"),
        (#""type": "id""#, #""type": "inviteCod""#, "sites[0].links[0].params.id.type", "did you mean \"inviteCode\""),
        (#""params": {"id": {"type": "id"}}"#, #""params": {}"#, "sites[0].links[0].params.id", "{id} is not declared"),
        (#""app": "example://items/{id}""#, #""app": "other://items/{id}""#, "sites[0].links[0].app", "is not the app's scheme"),
        (#""app": "example://items/{id}""#, #""app": "example://items/{nope}""#, "sites[0].links[0].app", "{nope} is not a parameter"),
        (#""app": "example://items/{id}""#, #""app": "items/{id}""#, "sites[0].links[0].app", "must start with the app's scheme"),
        (#""title": {"en": "Item {id}", "de": "Artikel {id}"}"#, #""title": {"en": "Item {id}"}"#, "sites[0].links[0].title", "no text for de"),
        (#""title": {"en": "Item {id}", "de": "Artikel {id}"}"#, #""title": "Item {idd}""#, "sites[0].links[0].title", "{idd} is not a parameter"),
        (
            #""title": {"en": "Item {id}", "de": "Artikel {id}"}"#, #""title": {"en": "a", "de": "b", "fr": "c"}"#, "sites[0].links[0].title.fr",
            "not one of the site's languages"
        ),
        (#""examples": ["/x/1"]"#, #""examples": ["/x/one"]"#, "sites[0].links[0].examples[0]", "broken link of rule \"item\""),
        (#""examples": ["/x/1"]"#, #""examples": ["/y/1"]"#, "sites[0].links[0].examples[0]", "matches no rule"),
        (#""examples": ["/x/1"]"#, #""examples": ["x/1"]"#, "sites[0].links[0].examples[0]", "is not a path"),
        (#""path": "/x/{id}""#, #""path": "/x/*""#, "sites[0].links[0].path", "'*' is not allowed"),
        (#""name": "item""#, #""name": "1tem""#, "sites[0].links[0].name", "not a valid rule name"),
        (
            #""params": {"id": {"type": "id"}}"#, #""params": {"id": {"type": "id", "required": false}}"#, "sites[0].links[0].params.id.required",
            "always required"
        ),
        (
            #""params": {"id": {"type": "id"}}"#, #""params": {"id": {"type": "id"}, "q": {"type": "text", "required": false}}, "x": 1"#, "sites[0].links[0].x",
            "unknown key"
        ),
    ])
    func problemsNameThePathAndTheFix(original: String, replacement: String, path: String, fragment: String) throws {
        let body = Self.good.replacingOccurrences(of: original, with: replacement)
        #expect(body != Self.good)
        let found = problems(in: configText(sites: [rule(body)]))
        let entry = try #require(found.first { $0.path.description == path }, "\(found)")
        #expect(entry.description.contains(fragment), "\(entry)")
        #expect(!entry.fix.isEmpty)
    }

    @Test func anExampleTakenByAnEarlierRuleSaysWhichAndHowToFix() throws {
        let broad =
            #"{"name": "any", "path": "/x/{id}", "params": {"id": {"type": "text"}}, "app": "example://any/{id}", "title": "Any", "examples": ["/x/a"]}"#
        let found = problems(in: configText(sites: [rule(broad + "," + Self.good)]))
        #expect(
            found.map(\.description) == [
                "sites[0].links[1].examples[0]: \"/x/1\" opens rule \"any\", an earlier rule, not \"item\". Fix: move \"item\" before \"any\", or make the earlier rule narrower"
            ])
    }

    @Test func anOptionalParameterBeforeTheQueryOfTheAppURLIsRefused() throws {
        let body = #"{"name": "t", "path": "/t", "params": {"id": {"type": "id", "required": false}}, "app": "example://t/{id}", "title": "T"}"#
        let found = problems(in: configText(sites: [rule(body)]))
        #expect(found.first?.path.description == "sites[0].links[0].app")
        #expect(found.first?.problem.contains("the parameter is optional") == true)
    }

    @Test func duplicateRuleNamesAndUnknownLanguagesAreRefused() {
        let twice = problems(in: configText(sites: [rule(Self.good + "," + Self.good)]))
        #expect(twice.contains { $0.path.description == "sites[0].links[1].name" && $0.problem.contains("also used") })
        let french = rule(Self.good).replacingOccurrences(of: #""languages": ["en", "de"]"#, with: #""languages": ["en", "fr"]"#)
        let found = problems(in: configText(sites: [french]))
        #expect(found.contains { $0.path.description == "sites[0].languages[1]" && $0.problem.contains("fr.json is missing") })
    }
}
