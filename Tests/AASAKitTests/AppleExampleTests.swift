import AASAKit
import Testing

/// The examples Apple's documentation and WWDC sessions give (spec §5), each with matching and
/// non-matching URLs.
@Suite("Apple's own examples")
struct AppleExampleTests {
    @Test(arguments: [
        ("https://example.com/buy/42", AASADecision.match, 1),
        ("https://example.com/buy/42#no_universal_links", .exclude, 0),
        ("https://example.com/help/website/faq?articleNumber=4815", .exclude, 2),
        ("https://example.com/help/123?articleNumber=4815", .match, 3),
    ])
    func supportingAssociatedDomainsFile(url: String, expected: AASADecision, component: Int) throws {
        let result = try Fixtures.matcher(Fixtures.appleOverview).match(url)
        #expect(result.decision == expected)
        #expect(result.detailsIndex == 0)
        #expect(result.componentIndex == component)
        #expect(result.appIDs == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"])
    }

    @Test(arguments: [
        "https://example.com/help/123?articleNumber=481",
        "https://example.com/help/123?articleNumber=48159",
        "https://example.com/help/123",
        "https://example.com/elsewhere",
    ])
    func supportingAssociatedDomainsFileMisses(url: String) throws {
        let result = try Fixtures.matcher(Fixtures.appleOverview).match(url)
        #expect(result.decision == .none)
        #expect(result.componentIndex == nil)
    }

    /// `{"/":"abc","?":"def","#":"*"}` matches `/abc?def`, but not `/abc` or `?def`.
    @Test(arguments: [
        ("https://www.example.com/abc?def", AASADecision.match),
        ("https://www.example.com/abc", .none),
        ("https://www.example.com?def", .none),
    ])
    func componentsAbcDefExample(url: String, expected: AASADecision) throws {
        let matcher = try Fixtures.component(##"{"/": "abc", "?": "def", "#": "*"}"##)
        #expect(try matcher.decision(url) == expected)
    }

    /// The Query page's example: a `productID` item of at least one character.
    @Test(arguments: [
        ("https://example.com/products/view?productID=12", AASADecision.match),
        ("https://example.com/products/view?productID=12&ref=mail", .match),
        ("https://example.com/products/view?productID=", .none),
        ("https://example.com/products/view?product=12", .none),
    ])
    func productIDQueryExample(url: String, expected: AASADecision) throws {
        let matcher = try Fixtures.component(#"{"/": "/products/*", "?": {"productID": "?*"}}"#)
        #expect(try matcher.decision(url) == expected)
    }

    /// The Details page's app-level defaults: `caseSensitive: false` for `my_great_product_123`.
    @Test(arguments: [
        ("https://example.com/buy/thing#my_great_product_123", AASADecision.match),
        ("https://example.com/BUY/thing#MY_GREAT_PRODUCT_123", .match),
        ("https://example.com/buy/thing#some_other_product", .none),
    ])
    func myGreatProductExample(url: String, expected: AASADecision) throws {
        let matcher = try Fixtures.components(
            ##"[{"/": "/buy/*", "#": "my_great_product_123"}]"##,
            entryDefaults: #"{"caseSensitive": false}"#)
        #expect(try matcher.decision(url) == expected)
    }

    /// The SubstitutionVariables page: `/$(lang)_$(region)/$(food)/` with four foods.
    @Test(arguments: [
        ("https://example.com/en_US/pizza/", AASADecision.match),
        ("https://example.com/ar_CA/samosa/", .match),
        ("https://example.com/zh_GB/sushi/", .match),
        ("https://example.com/en_US/burrito", .match),
        ("https://example.com/en_US/tacos/", .none),
        ("https://example.com/qq_ZZ/pizza/", .none),
        ("https://example.com/en-US/pizza/", .none),
        ("https://example.com/en_UK/pizza/", .none),
        ("https://example.com/EN_US/pizza/", .none),
    ])
    func langRegionFoodExample(url: String, expected: AASADecision) throws {
        let matcher = try Fixtures.component(
            #"{"/": "/$(lang)_$(region)/$(food)/"}"#,
            variables: #"{"food": ["burrito", "pizza", "sushi", "samosa"]}"#)
        #expect(try matcher.decision(url) == expected)
    }

    /// The archived App Search guide's listing 6-1 and its `NOT ` example.
    @Test(arguments: [
        ("https://example.com/wwdc/news/", AASADecision.match, "9JA89QQLNQ.com.apple.wwdc", 0),
        ("https://example.com/videos/wwdc/2015/live", .match, "9JA89QQLNQ.com.apple.wwdc", 2),
        ("https://example.com/videos/wwdc/2010/intro", .exclude, "9JA89QQLNQ.com.apple.wwdc", 1),
        ("https://example.com/anything/else", .match, "ABCD1234.com.apple.wwdc", 0),
    ])
    func archivedGuideLegacyPaths(url: String, expected: AASADecision, app: String, path: Int) throws {
        let json = """
            {"applinks": {"apps": [], "details": [
                {"appID": "9JA89QQLNQ.com.apple.wwdc", "paths": ["/wwdc/news/", "NOT /videos/wwdc/2010/*", "/videos/wwdc/201?/*"]},
                {"appID": "ABCD1234.com.apple.wwdc", "paths": ["*"]}
            ]}}
            """
        let result = try Fixtures.matcher(json).match(url, options: AASAMatchOptions(appID: app))
        #expect(result.decision == expected)
        #expect(result.ruleKind == .legacyPath)
        #expect(result.componentIndex == path)
    }

    @Test func archivedGuideWildcardNeedsOneCharacterForQuestionMark() throws {
        let matcher = try Fixtures.matcher(
            #"{"applinks": {"apps": [], "details": [{"appID": "9JA89QQLNQ.com.apple.wwdc", "paths": ["/videos/wwdc/201?/*"]}]}}"#)
        #expect(try matcher.decision("https://example.com/videos/wwdc/2019/x") == .match)
        #expect(try matcher.decision("https://example.com/videos/wwdc/20199/x") == .none)
        #expect(try matcher.decision("https://example.com/videos/wwdc/2020/x") == .none)
    }

    /// WWDC19: exclusions first, then `/help/*` with `articleNumber` of exactly four characters
    /// and an `articleName` of at least one.
    @Test(arguments: [
        ("https://example.com/help/article?articleNumber=1234&articleName=Wifi", AASADecision.match),
        ("https://example.com/help/article?articleName=Wifi&articleNumber=1234&extra=1", .match),
        ("https://example.com/help/article?articleNumber=123&articleName=Wifi", .none),
        ("https://example.com/help/article?articleNumber=1234", .none),
        ("https://example.com/help/website/x?articleNumber=1234&articleName=Wifi", .exclude),
    ])
    func wwdc19ArticleExample(url: String, expected: AASADecision) throws {
        let matcher = try Fixtures.components(
            """
            [{"/": "/help/website/*", "exclude": true},
             {"/": "/help/*", "?": {"articleNumber": "????", "articleName": "?*"}}]
            """)
        #expect(try matcher.decision(url) == expected)
    }

    /// WWDC20: `caseSensitive: false` lets `/Sourdough` match a lower-case recipe pattern.
    @Test(arguments: [
        ("https://example.com/recipes/sourdough", AASADecision.match),
        ("https://example.com/Recipes/SourDough", .match),
        ("https://example.com/recipes/rye", .none),
    ])
    func wwdc20SourdoughCaseInsensitive(url: String, expected: AASADecision) throws {
        let matcher = try Fixtures.component(#"{"/": "/recipes/sourdough", "caseSensitive": false}"#)
        #expect(try matcher.decision(url) == expected)
        let sensitive = try Fixtures.component(#"{"/": "/recipes/sourdough"}"#)
        #expect(try sensitive.decision("https://example.com/Recipes/SourDough") == .none)
    }

    /// WWDC20: Unicode patterns with `percentEncoded: false`.
    @Test(arguments: [
        ("https://example.com/%E5%93%88%E5%93%88/x", AASADecision.match),
        ("https://example.com/哈哈/recipe", .match),
        ("https://example.com/%E5%93%88%E5%93%88/", .none),
        ("https://example.com/%E5%93%88/x", .none),
    ])
    func wwdc20UnicodePattern(url: String, expected: AASADecision) throws {
        let matcher = try Fixtures.component(#"{"/": "/哈哈/?*", "percentEncoded": false}"#)
        #expect(try matcher.decision(url) == expected)
        let encoded = try Fixtures.component(#"{"/": "/哈哈/?*"}"#)
        #expect(try encoded.decision("https://example.com/%E5%93%88%E5%93%88/x") == .none)
    }

    /// WWDC20: a variable name may contain a space, as in `$(Canadian food)`.
    @Test(arguments: [
        ("https://example.com/food/poutine", AASADecision.match),
        ("https://example.com/food/nanaimo%20bar", .match),
        ("https://example.com/food/pizza", .none),
    ])
    func wwdc20CanadianFoodVariable(url: String, expected: AASADecision) throws {
        let matcher = try Fixtures.component(
            #"{"/": "/food/$(Canadian food)", "percentEncoded": false}"#,
            variables: #"{"Canadian food": ["poutine", "nanaimo bar", "butter tart"]}"#)
        #expect(try matcher.decision(url) == expected)
    }
}
