import AASAKit
import Testing

/// Messages people read: recorded leniency named as such, the closest rule only when it is related,
/// refusals in the common style, nesting said plainly, and long text cut in the middle.
@Suite("Messages")
struct MessageTests {
    static let recorded = "(swcutil behaviour recorded by third parties, not in Apple's documentation)"

    @Test(arguments: [
        (#"{"/": "/buy/*"}"#, "/buy", #"a trailing "/*" also matches the parent path"#),
        (#"{"/": "abc"}"#, "/abc", #"the pattern's missing leading "/" is read as if it were written"#),
        (#"{"/": "/x"}"#, "//x", "a leading run of slashes counts as one"),
        (#"{"/": "/search/"}"#, "/search", "trailing slashes do not count"),
        (#"{"/": "/x"}"#, "/x//", "trailing slashes do not count"),
    ])
    func recordedLeniencyIsNamedAndCited(component: String, path: String, rule: String) throws {
        let result = try Fixtures.component(component).match("https://example.com\(path)")
        #expect(result.decision == .match)
        #expect(result.explanation.contains("only through recorded leniency: \(rule)"), "\(result.explanation)")
        #expect(result.explanation.contains(Self.recorded))
    }

    @Test(arguments: [(#"{"/": "/buy/*"}"#, "/buy/1"), (#"{"/": "/buy/*"}"#, "/buy/"), (#"{"/": "/search/"}"#, "/search/"), (#"{"/": "*"}"#, "/")])
    func aPlainGlobMatchSaysNothingMore(component: String, path: String) throws {
        let result = try Fixtures.component(component).match("https://example.com\(path)")
        #expect(result.decision == .match)
        #expect(!result.explanation.contains("leniency"), "\(result.explanation)")
    }

    @Test func legacyPathsNameTheLeniencyToo() throws {
        let result = try Fixtures.matcher(Fixtures.legacyRecipes).match("https://example.com/search")
        #expect(result.decision == .match)
        #expect(result.explanation.contains("only through recorded leniency: trailing slashes do not count"), "\(result.explanation)")
    }

    @Test func closestIsOnlyARelatedRule() throws {
        let apple = try Fixtures.matcher(Fixtures.appleOverview)
        let unrelated = try apple.match("https://example.com/nothing")
        #expect(unrelated.closestRule == nil)
        #expect(unrelated.explanation == #"no rule matched; path "/nothing" does not match any rule's path pattern ("/buy/*", "/help/*")"#)
        let similar = try apple.match("https://example.com/buys")
        #expect(similar.closestRule?.ruleIndex == 1, "\(similar.explanation)")
        let queryMissing = try apple.match("https://example.com/help/me")
        #expect(queryMissing.closestRule?.ruleIndex == 3)
        #expect(queryMissing.explanation.contains(#"query item "articleNumber" is absent"#))
        // A rule whose path matches beats one that fails only on a path it does not share.
        let pathFirst = try Fixtures.components(##"[{"/": "/other"}, {"/": "/x", "?": {"a": "1"}, "#": "f"}]"##).match("https://example.com/x")
        #expect(pathFirst.closestRule?.ruleIndex == 1, "\(pathFirst.explanation)")
    }

    @Test func refusalsReadLikeEveryOtherExplanation() throws {
        let matcher = try Fixtures.matcher(Fixtures.rowhni)
        for (url, domain) in [
            ("https://evil.test/addfriend", "rowhni.com"), ("https://rowhni.com:8443/addfriend", "rowhni.com"), ("http://rowhni.com/addfriend", "rowhni.com"),
        ] {
            let text = try matcher.match(url, options: AASAMatchOptions(domain: domain)).explanation
            #expect(text.hasPrefix("the URL"), "\(text)")
            #expect(!text.hasSuffix("."), "\(text)")
        }
    }

    @Test func tooDeepANestingIsSaidSoWithAShortPath() throws {
        let deep = "{\"applinks\":" + String(repeating: "{\"details\":", count: 200) + "1" + String(repeating: "}", count: 201)
        let finding = try #require(AASAValidator().validate(bytes: Array(deep.utf8)).findings.first)
        #expect(finding.code == .notJSON)
        #expect(finding.message.contains("nested deeper than 128 levels"))
        #expect(!finding.message.contains("not valid JSON"))
        #expect(finding.path == "applinks.details.details.details")
        #expect(finding.message.count < 250, "\(finding.message)")
        #expect(throws: AASADocumentError.self) { try AASADocument(text: deep) }
        do {
            _ = try AASADocument(text: deep)
        } catch {
            #expect(error.description.hasPrefix("the file is nested deeper than 128 levels"))
            #expect(error.description.count < 250)
        }
    }

    @Test func anEmptyFileIsSaidToBeEmpty() throws {
        let finding = try #require(AASAValidator().validate(bytes: []).findings.first)
        #expect(finding.code == .notJSON)
        #expect(finding.message == "the file is empty (0 bytes)")
    }

    @Test func longPatternsAndURLsAreCutInTheMiddle() throws {
        let segment = String(repeating: "abcdefghij", count: 500)
        let matcher = try Fixtures.component(#"{"/": "/\#(segment)/*", "?": {"q": "\#(segment)"}}"#)
        let result = try matcher.match("https://example.com/\(segment)/x?q=\(segment)x")
        #expect(result.decision == .none)
        #expect(result.explanation.contains("…"))
        #expect(result.explanation.count < 700, "\(result.explanation.count)")
        let report = AASAValidator().validate(bytes: Array(ValidatorTests.component(#"{"/": "/\#(segment) x"}"#).utf8))
        let finding = try #require(report.findings(.characterNotInURL).first)
        #expect(finding.message.count < 400)
        #expect(finding.fix.count < 300)
        #expect(Elision.middle("short") == "short")
        let cut = Elision.middle(String(repeating: "a", count: 60) + String(repeating: "b", count: 60), limit: 21)
        #expect(cut == "aaaaaaaaaa…bbbbbbbbbb")
    }
}
