import LinkRules
import OrderedJSON
import Testing

/// The MustC and recipe examples of seeds 002 and 004, and a forum-like rule set, built in code.
enum SampleRules {
    static func rule(_ name: String, _ path: String, _ parameters: [LinkParameter], _ app: String, caseSensitive: Bool = true) -> LinkRule {
        LinkRule(
            name: name, path: try! PathTemplate.parse(path).get(), parameters: parameters,
            appURL: try! AppURLTemplate.parse(app).get(), title: LocalizedText(["en": name]), caseSensitive: caseSensitive
        )
    }

    static let forum = LinkRouter(
        rules: [
            rule(
                "post", "/showthread.php",
                [LinkParameter(name: "goto", constraint: .fixed("post")), LinkParameter(name: "postid", constraint: .typed(.id, required: true))],
                "awful://posts/{postid}"),
            rule(
                "threadPage", "/showthread.php",
                [
                    LinkParameter(name: "threadid", constraint: .typed(.id, required: true)),
                    LinkParameter(name: "pagenumber", constraint: .typed(.page, required: true)),
                ], "awful://threads/{threadid}/pages/{pagenumber}"),
            rule(
                "thread", "/showthread.php",
                [
                    LinkParameter(name: "threadid", constraint: .typed(.id, required: true)),
                    LinkParameter(name: "perpage", constraint: .typed(.id, required: false)),
                ], "awful://threads/{threadid}?perpage={perpage}"),
            rule(
                "profileShort", "/member.php",
                [LinkParameter(name: "action", constraint: .absent), LinkParameter(name: "userid", constraint: .typed(.id, required: true))],
                "awful://users/{userid}"),
            rule(
                "invite", "/addfriend", [LinkParameter(name: "code", constraint: .typed(.inviteCode, required: true), isSecret: true)],
                "rowhni://addfriend?code={code}"),
        ],
        passThrough: [LinkParameter(name: "noseen", constraint: .typed(.flag, required: false))]
    )

    static let textbook = LinkRouter(rules: [
        rule(
            "familyMember", "/familymember/{name}/", [LinkParameter(name: "name", location: .path, constraint: .typed(.slug, required: true))],
            "mustc://FamilyMember/{name}"),
        rule("movie", "/movie/{name}", [LinkParameter(name: "name", location: .path, constraint: .typed(.text, required: true))], "mustc://Movie/{name}"),
        rule("recipe", "/recipes/{id}/", [LinkParameter(name: "id", location: .path, constraint: .typed(.id, required: true))], "recipes://recipes/{id}"),
        rule(
            "searchTerm", "/search/{term}", [LinkParameter(name: "term", location: .path, constraint: .typed(.text, required: true))],
            "cookpad://search?q={term}"),
        rule("search", "/search/", [LinkParameter(name: "q", constraint: .typed(.text, required: true))], "recipes://search?q={q}"),
    ])
}

@Suite("Routing links to rules")
struct LinkRouterTests {
    private func appURL(_ router: LinkRouter, _ path: String, _ queryText: String = "") -> String? {
        if case .page(let match) = router.route(rawPath: path, rawQuery: queryText.isEmpty ? nil : queryText) { return match.appURL }
        return nil
    }

    private func problem(_ router: LinkRouter, _ path: String, _ queryText: String = "") -> (String, LinkProblem)? {
        if case .badLink(let rule, let problem, _) = router.route(rawPath: path, rawQuery: queryText.isEmpty ? nil : queryText) { return (rule.name, problem) }
        return nil
    }

    @Test func theFirstMatchingRuleWins() {
        #expect(appURL(SampleRules.forum, "/showthread.php", "goto=post&postid=789&threadid=1") == "awful://posts/789")
        #expect(appURL(SampleRules.forum, "/showthread.php", "threadid=456&pagenumber=2") == "awful://threads/456/pages/2")
        #expect(appURL(SampleRules.forum, "/showthread.php", "threadid=456") == "awful://threads/456")
        #expect(appURL(SampleRules.forum, "/showthread.php", "threadid=456&perpage=40") == "awful://threads/456?perpage=40")
    }

    @Test func aMalformedValueIsABrokenLinkOfTheMatchingRuleNotAnotherRule() {
        #expect(
            problem(SampleRules.forum, "/showthread.php", "threadid=456&pagenumber=x")! == ("threadPage", .malformed(parameter: "pagenumber", expected: .page)))
        #expect(problem(SampleRules.forum, "/showthread.php", "threadid=4x")! == ("thread", .malformed(parameter: "threadid", expected: .id)))
        #expect(problem(SampleRules.forum, "/showthread.php", "threadid=1&perpage=x")! == ("thread", .malformed(parameter: "perpage", expected: .id)))
    }

    @Test func aLinkNoRuleMatchesBlamesTheClosestRule() {
        #expect(problem(SampleRules.forum, "/showthread.php", "goto=post")! == ("post", .missing(parameter: "postid")))
        #expect(problem(SampleRules.forum, "/showthread.php")! == ("thread", .missing(parameter: "threadid")))
        #expect(problem(SampleRules.forum, "/showthread.php", "goto=edit&postid=1")! == ("post", .wrongValue(parameter: "goto", expected: "post")))
        #expect(problem(SampleRules.forum, "/member.php", "action=edit&userid=1")! == ("profileShort", .unexpected(parameter: "action")))
        #expect(problem(SampleRules.forum, "/addfriend")! == ("invite", .missing(parameter: "code")))
        #expect(problem(SampleRules.forum, "/addfriend", "code=")! == ("invite", .missing(parameter: "code")))
        #expect(SampleRules.forum.route(rawPath: "/nowhere", rawQuery: nil) == .noRule)
    }

    @Test func everyOccurrenceOfAFixedParameterMustMatchAndRepeatsMustAgree() {
        // AASA requires every occurrence of a query item to match its pattern.
        #expect(problem(SampleRules.forum, "/showthread.php", "goto=post&goto=edit&postid=1")?.0 == "post")
        #expect(appURL(SampleRules.forum, "/showthread.php", "goto=post&goto=post&postid=1") == "awful://posts/1")
        #expect(problem(SampleRules.forum, "/addfriend", "code=ABCD&code=EFGH")! == ("invite", .repeated(parameter: "code")))
        #expect(appURL(SampleRules.forum, "/addfriend", "code=ABCD&code=ABCD") == "rowhni://addfriend?code=ABCD")
        #expect(appURL(SampleRules.forum, "/member.php", "action=&userid=3") == "awful://users/3")
    }

    @Test func matchingReadsTheQueryAsSentLikeAASA() {
        // percentEncoded defaults to true: an encoded letter is not the letter, for the device and the page.
        #expect(problem(SampleRules.forum, "/showthread.php", "goto=pos%74&postid=1")! == ("post", .wrongValue(parameter: "goto", expected: "post")))
        #expect(problem(SampleRules.forum, "/addfriend", "%63ode=ABCD")! == ("invite", .missing(parameter: "code")))
        // Values are decoded to be checked and used; a broken escape makes them malformed.
        #expect(appURL(SampleRules.forum, "/addfriend", "code=AB%43D") == "rowhni://addfriend?code=ABCD")
        #expect(problem(SampleRules.forum, "/addfriend", "code=AB%ZZ")! == ("invite", .malformed(parameter: "code", expected: .inviteCode)))
        // `+` is a plus, as the app's URLComponents reads it.
        #expect(problem(SampleRules.forum, "/addfriend", "code=AB+CD")! == ("invite", .malformed(parameter: "code", expected: .inviteCode)))
        #expect(appURL(SampleRules.forum, "/member.php", "action&userid=3") == "awful://users/3")
        // Items split on the byte '&', as the device splits them, even before a combining mark.
        #expect(appURL(SampleRules.forum, "/showthread.php", "threadid=7&\u{301}x=1") == "awful://threads/7")
    }

    @Test func passThroughParametersAreCarriedWhenValidAndDroppedOtherwise() {
        #expect(appURL(SampleRules.forum, "/showthread.php", "threadid=1&noseen=1") == "awful://threads/1?noseen=1")
        #expect(appURL(SampleRules.forum, "/showthread.php", "threadid=1&noseen=yes") == "awful://threads/1")
        #expect(appURL(SampleRules.forum, "/showthread.php", "threadid=1&noseen=1&noseen=0") == "awful://threads/1?noseen=1")
    }

    @Test func theTextbookPathShapesRoute() {
        #expect(appURL(SampleRules.textbook, "/familymember/dylan/") == "mustc://FamilyMember/dylan")
        #expect(appURL(SampleRules.textbook, "/movie/The%20Incredibles") == "mustc://Movie/The%20Incredibles")
        #expect(appURL(SampleRules.textbook, "/recipes/10/") == "recipes://recipes/10")
        #expect(appURL(SampleRules.textbook, "/search/chicken") == "cookpad://search?q=chicken")
        #expect(appURL(SampleRules.textbook, "/search/", "q=macaroni") == "recipes://search?q=macaroni")
        #expect(problem(SampleRules.textbook, "/familymember/a/b/")! == ("familyMember", .malformed(parameter: "name", expected: .slug)))
        #expect(problem(SampleRules.textbook, "/recipes/ten/")! == ("recipe", .malformed(parameter: "id", expected: .id)))
        #expect(problem(SampleRules.textbook, "/movie/%ZZ")! == ("movie", .malformed(parameter: "name", expected: .text)))
    }

    @Test func buildsLinksThatRouteBackToTheirRule() throws {
        let rule = try #require(SampleRules.forum.rule(named: "post"))
        let link = try rule.link(values: ["postid": "789"], extraQuery: [("utm_source", "news letter")])
        #expect(link == "/showthread.php?goto=post&postid=789&utm_source=news%20letter")
        #expect(throws: LinkRule.LinkBuildError.missing("postid")) { try rule.link(values: [:]) }
        #expect(throws: LinkRule.LinkBuildError.malformed("postid", .id)) { try rule.link(values: ["postid": "x"]) }
        #expect(throws: LinkRule.LinkBuildError.unknown("nope")) { try rule.link(values: ["postid": "1", "nope": "2"]) }
        let movie = try #require(SampleRules.textbook.rule(named: "movie"))
        #expect(try movie.link(values: ["name": "Up & Away"]) == "/movie/Up%20%26%20Away")
        #expect(appURL(SampleRules.textbook, "/movie/Up%20%26%20Away") == "mustc://Movie/Up%20%26%20Away")
    }
}

@Suite("AASA generation")
struct AASAGeneratorTests {
    @Test func eachRuleBecomesAComponentInRuleOrder() {
        let document = AASAGenerator.document(rules: SampleRules.forum.rules, appIDs: ["ABCDE12345.com.example"])
        let entry = document["applinks"]?["details"]?.arrayElements?.first
        let components = entry?["components"]?.arrayElements ?? []
        #expect(components.count == 5)
        #expect(components[0].jsonText(.compact) == #"{"comment":"post","/":"/showthread.php","?":{"goto":"post","postid":"?*"}}"#)
        #expect(components[2].jsonText(.compact) == #"{"comment":"thread","/":"/showthread.php","?":{"threadid":"?*"}}"#, "optional parameters take no part")
        #expect(components[3].jsonText(.compact) == #"{"comment":"profileShort","/":"/member.php","?":{"action":"","userid":"?*"}}"#, "absent reads as empty")
        #expect(entry?["appIDs"] == ["ABCDE12345.com.example"])
        #expect(entry?["appID"] == "ABCDE12345.com.example")
        #expect(entry?["paths"] == ["/showthread.php", "/member.php", "/addfriend"])
        #expect(document["applinks"]?["apps"] == .array([]))
    }

    @Test func extraComponentsComeFirstAndPureExclusionsBecomeNOTPaths() throws {
        let exclude = try JSONParser().parse(#"{"/": "/admin/*", "exclude": true, "comment": "never"}"#)
        let queryExclude = try JSONParser().parse(#"{"/": "/x", "?": {"a": "1"}, "exclude": true}"#)
        let credentials = JSONMember("webcredentials", .object([JSONMember("apps", ["ABCDE12345.com.example"])]))
        let document = AASAGenerator.document(
            rules: SampleRules.textbook.rules, appIDs: ["ABCDE12345.com.example"],
            options: .init(extraComponents: [exclude, queryExclude], passThroughSections: [credentials])
        )
        let entry = document["applinks"]?["details"]?.arrayElements?.first
        #expect(entry?["components"]?.arrayElements?.first == exclude)
        #expect(entry?["paths"] == ["NOT /admin/*", "/familymember/?*", "/movie/?*", "/recipes/?*", "/search/?*", "/search"])
        #expect(document["webcredentials"] == credentials.value)
    }

    @Test func withoutLegacyPathsTheEntryIsModernOnly() {
        let document = AASAGenerator.document(rules: SampleRules.forum.rules, appIDs: ["A1.b", "A1.c"], options: .init(legacyPaths: false))
        let entry = document["applinks"]?["details"]?.arrayElements?.first
        #expect(entry?.objectMembers?.map(\.key) == ["appIDs", "components"])
        #expect(document["applinks"]?.objectMembers?.map(\.key) == ["details"])
    }

    @Test func caseInsensitiveRulesSaySo() {
        let rule = SampleRules.rule(
            "r", "/Movie/{name}", [LinkParameter(name: "name", location: .path, constraint: .typed(.text, required: true))], "m://x/{name}",
            caseSensitive: false)
        #expect(AASAGenerator.component(for: rule)["caseSensitive"] == false)
    }
}
