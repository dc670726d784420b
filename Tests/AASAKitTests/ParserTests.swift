import AASAKit
import OrderedJSON
import Testing

@Suite("Parsing")
struct ParserTests {
    @Test func readsEveryServiceAndSection() throws {
        let document = try Fixtures.document(Fixtures.appleOverview)
        #expect(document.appLinks?.details.count == 1)
        #expect(document.appLinks?.details.first?.components?.count == 4)
        #expect(document.appLinks?.details.first?.components?.first?.fragment == "no_universal_links")
        #expect(document.appLinks?.details.first?.components?.first?.exclude == true)
        #expect(document.webCredentials?.apps == ["ABCDE12345.com.example.app"])
        #expect(document.appClips?.apps == ["ABCED12345.com.example.MyApp.Clip"])
        #expect(document.activityContinuation == nil)
        #expect(document.allAppIDs == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2", "ABCED12345.com.example.MyApp.Clip"])
        #expect(document.diagnostics.isEmpty)
    }

    @Test func readsDefaultsVariablesAndQueryForms() throws {
        let json = """
            {"applinks": {"defaults": {"caseSensitive": false}, "substitutionVariables": {"food": ["a", "b"]},
              "details": [{"appIDs": ["ABCDE12345.a.b"], "defaults": {"percentEncoded": false},
                "components": [{"?": "x=1"}, {"?": {"k": "v"}}, {"?": {"k": 1}}]}]},
             "activitycontinuation": {"apps": ["ABCDE12345.a.b"]}}
            """
        let document = try Fixtures.document(json)
        let appLinks = try #require(document.appLinks)
        #expect(appLinks.defaults?.caseSensitive == false)
        #expect(appLinks.substitutionVariables["food"] == ["a", "b"])
        #expect(appLinks.details.first?.defaults?.percentEncoded == false)
        #expect(
            appLinks.details.first?.components?.map(\.query) == [
                .string("x=1"), .items([AASAQueryItemPattern(name: "k", pattern: "v")]), .ignoredDictionary(offendingName: "k"),
            ])
        #expect(document.activityContinuation?.apps == ["ABCDE12345.a.b"])
    }

    @Test func brokenEntriesAndComponentsAreSkippedNotFatal() throws {
        let json = """
            {"applinks": {"details": [
                5,
                {"appIDs": [1, "ABCDE12345.a.b"], "components": [{"/": 3}, "x", {"/": "/ok"}], "paths": [true, "/p"]},
                {"components": [{"/": "/orphan"}]}
            ]}}
            """
        let document = try Fixtures.document(json)
        let details = try #require(document.appLinks?.details)
        #expect(details.count == 1)
        #expect(details.first?.index == 1)
        #expect(details.first?.appIDs == ["ABCDE12345.a.b"])
        #expect(details.first?.components?.map(\.index) == [2])
        #expect(details.first?.paths?.map(\.text) == ["/p"])
        #expect(
            document.diagnostics.map(\.path) == [
                "applinks.details[0]", "applinks.details[1].appIDs[0]",
                #"applinks.details[1].components[0]["/"]"#, "applinks.details[1].components[1]", "applinks.details[1].paths[0]",
                "applinks.details[2]",
            ])
        let result = try AASAMatcher(document).match("https://example.com/ok")
        #expect(result.detailsIndex == 1)
        #expect(result.componentIndex == 2)
    }

    @Test(arguments: ["", "   ", "nul", "{", "{\"a\":1,}", "\u{FEFF}\u{FEFF}{}", "// c\n{}", "{\"a\": \"\u{01}\"}"])
    func nonJSONThrowsAClearError(text: String) {
        #expect(throws: AASADocumentError.self) { try AASADocument(text: text) }
        do {
            _ = try AASADocument(text: text)
        } catch {
            #expect(error.code == .notJSON)
            #expect(error.description.hasPrefix("not valid JSON"))
        }
    }

    @Test(arguments: ["[]", "\"applinks\"", "42", "null", "true"])
    func nonObjectJSONThrows(text: String) {
        do {
            _ = try AASADocument(text: text)
            Issue.record("expected rootNotObject for \(text)")
        } catch {
            #expect(error.code == .rootNotObject)
        }
    }

    @Test func readsAnAlreadyParsedValue() throws {
        let value = try JSONParser().parse(Fixtures.rowhni)
        let document = try AASADocument(json: value)
        #expect(document.byteCount == nil)
        #expect(try AASAMatcher(document).decision("https://rowhni.com/joingroup?code=A") == .match)
    }

    @Test func legacyPathExclusionNeedsTheExactPrefix() throws {
        let json = #"{"applinks": {"details": [{"appID": "ABCDE12345.a.b", "paths": ["NOT /a", "not /b", "NOT/c"]}]}}"#
        let paths = try #require(try Fixtures.document(json).appLinks?.details.first?.paths)
        #expect(paths.map(\.isExclusion) == [true, false, false])
        #expect(paths.map(\.pattern) == ["/a", "not /b", "NOT/c"])
    }
}
