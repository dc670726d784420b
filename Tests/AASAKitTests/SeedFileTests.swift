import AASAKit
import Testing

/// The deployments' own files: Awful (seed 000), Rowhni's invite links, and seed 004's legacy shape.
@Suite("Seed files")
struct SeedFileTests {
    /// Every row of the Awful table in product.md against seed 000's components.
    @Test(arguments: [
        ("/forumdisplay.php?forumid=123", 0),
        ("/showthread.php?threadid=456", 1),
        ("/showthread.php?threadid=456&pagenumber=2", 1),
        ("/showthread.php?threadid=456&pagenumber=2&userid=7", 1),
        ("/showthread.php?threadid=456&goto=lastpost", 1),
        ("/showthread.php?threadid=456&goto=newpost", 1),
        ("/showthread.php?threadid=456&noseen=1", 1),
        ("/showthread.php?goto=post&postid=789", 2),
        ("/member.php?action=getinfo&userid=123", 3),
        ("/banlist.php", 4),
        ("/banlist.php?userid=123", 4),
    ])
    func awfulTableRows(path: String, component: Int) throws {
        let result = try Fixtures.matcher(Fixtures.awful).match(
            "https://forums.somethingawful.com\(path)",
            options: AASAMatchOptions(domain: "forums.somethingawful.com"))
        #expect(result.decision == .match)
        #expect(result.detailsIndex == 0)
        #expect(result.componentIndex == component)
        #expect(result.ruleKind == .component)
        #expect(result.appIDs == ["TEAMID.com.awfulapp.Awful"])
    }

    /// The table says profiles also come "without action", but seed 000's component requires
    /// `action=getinfo`, and an absent item reads as "" — so the link stays in the browser.
    @Test func awfulProfileWithoutActionDoesNotMatch() throws {
        let result = try Fixtures.matcher(Fixtures.awful).match("https://forums.somethingawful.com/member.php?userid=123")
        #expect(result.decision == .none)
        #expect(result.closestRule?.ruleIndex == 3)
        #expect(result.explanation.contains(#"query item "action" is absent"#))
        #expect(result.explanation.contains("User profiles"))
    }

    @Test func awfulMissesExplainTheClosestRule() throws {
        let matcher = try Fixtures.matcher(Fixtures.awful)
        let missingID = try matcher.match("https://forums.somethingawful.com/forumdisplay.php")
        #expect(missingID.decision == .none)
        #expect(missingID.closestRule?.ruleIndex == 0)
        #expect(missingID.explanation.contains(#"query item "forumid" is absent; pattern "?*" needs at least one character"#))
        let postWithoutID = try matcher.match("https://forums.somethingawful.com/showthread.php?goto=post")
        #expect(postWithoutID.closestRule?.ruleIndex == 2)
        #expect(try matcher.decision("https://forums.somethingawful.com/index.php") == .none)
    }

    @Test func awfulFileIsOnlyWarnedAboutThePlaceholderTeamID() throws {
        let report = AASAValidator().validate(bytes: Array(Fixtures.awful.utf8))
        #expect(!report.hasErrors)
        #expect(report.findings.map(\.code) == [.unusualTeamID])
        #expect(report.findings.first?.path == "applinks.details[0].appIDs[0]")
    }

    @Test(arguments: [
        ("/addfriend?code=TEST123", AASADecision.match, 0 as Int?),
        ("/addfriend?code=TEST123&utm_source=mail&from=qrcode", .match, 0),
        ("/joingroup?code=ABC123", .match, 1),
        ("/joingroup", .match, 1),
        ("/other", .none, nil),
        ("/", .none, nil),
        ("/invite/addfriend?code=X", .none, nil),
    ])
    func rowhniInviteLinks(path: String, expected: AASADecision, component: Int?) throws {
        let result = try Fixtures.matcher(Fixtures.rowhni).match("https://rowhni.com\(path)")
        #expect(result.decision == expected)
        #expect(result.componentIndex == component)
    }

    @Test func rowhniOnAnotherHostIsNotMatched() throws {
        let result = try Fixtures.matcher(Fixtures.rowhni).match("https://evil.test/addfriend?code=X", options: AASAMatchOptions(domain: "rowhni.com"))
        #expect(result.decision == .none)
        #expect(result.isOnAnotherHost)
        #expect(result.explanation == #"the URL's host "evil.test" is not "rowhni.com", the domain the file is served for"#)
        #expect(result.swcutilVerifyLines() == [#"Input domain "rowhni.com" did not match input URL's domain "evil.test"."#])
    }

    @Test func legacyDictionaryFileParses() throws {
        let document = try Fixtures.document(Fixtures.legacyRecipes)
        let appLinks = try #require(document.appLinks)
        #expect(appLinks.detailsIsDictionary)
        #expect(appLinks.legacyApps == [])
        #expect(appLinks.details.count == 1)
        #expect(appLinks.details.first?.appIDs == ["6QA73RGQR2.com.donny.recipes"])
        #expect(appLinks.details.first?.paths?.map(\.text) == ["/recipes/*/", "/search/"])
        #expect(document.diagnostics.isEmpty)
    }

    @Test(arguments: [
        ("/recipes/10/", AASADecision.match, 0 as Int?),
        ("/recipes/20/", .match, 0),
        ("/search/?q=macaroni", .match, 1),
        ("/search/", .match, 1),
        ("/search/chicken", .none, nil),
        ("/about", .none, nil),
    ])
    func legacyDictionaryFileMatches(path: String, expected: AASADecision, index: Int?) throws {
        let result = try Fixtures.matcher(Fixtures.legacyRecipes).match("https://www.donnysrecipes.com\(path)")
        #expect(result.decision == expected)
        #expect(result.componentIndex == index)
        if expected == .match {
            #expect(result.ruleKind == .legacyPath)
            #expect(result.appIDs == ["6QA73RGQR2.com.donny.recipes"])
        }
    }

    @Test func legacyDictionaryFileIsFlaggedButValid() {
        let report = AASAValidator().validate(bytes: Array(Fixtures.legacyRecipes.utf8))
        #expect(!report.hasErrors)
        #expect(report.findings.map(\.code) == [.legacyDetailsDictionary])
    }
}
