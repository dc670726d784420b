import AASAKit
import Testing

/// The words people read: which rule decided, or which came closest and what failed.
@Suite("Explanations")
struct ExplanationTests {
    @Test func matchNamesTheRuleTheCommentAndTheParts() throws {
        let result = try Fixtures.matcher(Fixtures.awful).match("https://forums.somethingawful.com/showthread.php?threadid=456")
        #expect(result.explanation.hasPrefix(#"matched by applinks.details[0].components[1] ("Thread pages") for TEAMID.com.awfulapp.Awful: "#))
        #expect(result.explanation.contains(#"path "/showthread.php" matches "/showthread.php""#))
        #expect(result.explanation.contains(#"query item "threadid" matches "?*""#))
    }

    @Test func excludeSaysBlocked() throws {
        let result = try Fixtures.matcher(Fixtures.appleOverview).match("https://example.com/buy/1#no_universal_links")
        #expect(result.explanation.hasPrefix("blocked by applinks.details[0].components[0]"))
        #expect(result.explanation.contains(#""exclude": true"#))
    }

    @Test(arguments: [
        ("/member.php?action=edit&userid=1", #"query item "action" is "edit", which does not match "getinfo""#),
        ("/member.php?action=getinfo&userid=", #"query item "userid" is empty; pattern "?*" needs at least one character"#),
        (
            "/member.php?action=getinfo&action=edit&userid=1",
            #"query item "action" appears 2 times and occurrence 2 is "edit", which does not match "getinfo" (every occurrence must match)"#
        ),
        ("/member.php?userid=1", #"query item "action" is absent; pattern "getinfo" expects exactly that text"#),
    ])
    func missNamesTheFailingQueryItem(path: String, fragment: String) throws {
        let result = try Fixtures.matcher(Fixtures.awful).match("https://forums.somethingawful.com\(path)")
        #expect(result.decision == .none)
        #expect(result.closestRule?.ruleIndex == 3)
        #expect(result.explanation.contains(fragment), "\(result.explanation)")
    }

    @Test func missOnPathAndFragment() throws {
        let matcher = try Fixtures.component(##"{"/": "/a/????", "#": "?*"}"##)
        let shortPath = try matcher.match("https://example.com/a/123#x")
        #expect(shortPath.explanation.contains(#"path "/a/123" does not match "/a/????""#))
        let noFragment = try matcher.match("https://example.com/a/1234")
        #expect(noFragment.explanation.contains(#"the URL has no fragment; pattern "?*" needs at least one character"#))
    }

    @Test func missWithBrokenVariableSaysWhy() throws {
        let result = try Fixtures.component(#"{"/": "/$(nope)"}"#).match("https://example.com/x")
        #expect(result.explanation.contains("the variable $(nope) is not defined"))
    }

    @Test func missForLegacyPathsAndEmptyFiles() throws {
        let legacy = try Fixtures.matcher(Fixtures.legacyRecipes).match("https://example.com/about")
        #expect(legacy.explanation.contains("none of the 2 legacy paths"))
        let noAppLinks = try Fixtures.matcher(#"{"webcredentials": {"apps": []}}"#).match("https://example.com/")
        #expect(noAppLinks.explanation.contains("no applinks section"))
        let otherApp = try Fixtures.matcher(Fixtures.rowhni).match("https://rowhni.com/addfriend", options: AASAMatchOptions(appID: "ABCDE12345.other"))
        #expect(otherApp.decision == .none)
        #expect(otherApp.explanation == #"no details entry lists the app "ABCDE12345.other""#)
    }

    @Test func swcutilLinesFollowTheRecordedWording() throws {
        let matcher = try Fixtures.matcher(Fixtures.appleOverview)
        let matched = try matcher.match("https://example.com/buy/42", options: AASAMatchOptions(domain: "example.com"))
        #expect(
            matched.swcutilVerifyLines() == [
                #"{ s = applinks, a = ABCDE12345.com.example.app, d = example.com }: Pattern "https://example.com/buy/42" matched."#,
                #"{ s = applinks, a = ABCDE12345.com.example.app2, d = example.com }: Pattern "https://example.com/buy/42" matched."#,
            ])
        let blocked = try matcher.match("https://example.com/buy/42#no_universal_links", options: AASAMatchOptions(domain: "example.com"))
        #expect(blocked.swcutilVerifyLines().first?.hasSuffix(#"Pattern "https://example.com/buy/42#no_universal_links" blocked match."#) == true)
        let missed = try matcher.match("https://example.com/nothing")
        #expect(missed.swcutilVerifyLines() == ["Input JSON did not match input URL."])
        let elsewhere = try matcher.match("https://evil.test/buy/1", options: AASAMatchOptions(domain: "example.com"))
        #expect(elsewhere.swcutilVerifyLines() == [#"Input domain "example.com" did not match input URL's domain "evil.test"."#])
    }
}
