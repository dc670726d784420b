import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// Seeds 002 and 004: path-segment parameters and the recipe site's exclusions, served for real.
@Suite("The textbook examples")
struct TextbookSiteTests {
    let server: LinkhostServer

    init() throws {
        var overrides = ConfigurationOverrides()
        overrides.listenAddress = .init("127.0.0.1", from: "the test")
        overrides.port = .init(0, from: "the test")
        // The fixture turns the hit log off: nothing is written next to it.
        let configuration = try ConfigurationLoader.load(path: ProjectPaths.root + "/Tests/Fixtures/textbook.json", overrides: overrides)
        #expect(!configuration.log.enabled)
        server = try LinkhostServer(configuration: configuration)
    }

    private func get(_ target: String, _ host: String) throws -> RawHTTPClient.Response {
        try server.inProcess.request("GET", target, host: host)
    }

    @Test(arguments: [
        ("www.familymoviesapp.com", "/familymember/dylan/", 200, "mustc://FamilyMember/dylan"),
        ("www.familymoviesapp.com", "/familymember/jack", 200, "mustc://FamilyMember/jack"),
        ("www.familymoviesapp.com", "/movie/The%20Incredibles", 200, "mustc://Movie/The%20Incredibles"),
        ("www.familymoviesapp.com", "/familymember/a/b/", 400, "mustc://"),
        ("www.donnysrecipes.com", "/recipes/10/", 200, "recipes://recipes/10"),
        ("www.donnysrecipes.com", "/search/?q=macaroni", 200, "recipes://search?q=macaroni"),
        ("www.donnysrecipes.com", "/search/", 400, "recipes://"),
        ("cookpad.com", "/search/chicken", 200, "cookpad://search?q=chicken"),
    ])
    func pathSegmentLinksRoute(host: String, target: String, status: Int, appURL: String) throws {
        let response = try get(target, host)
        #expect(response.status == status)
        #expect(HTMLProbe(response.text).attribute("href", ofElementWithID: "open-app").map(ViewTokens.removed) == appURL)
    }

    @Test func aHostileMovieNameIsEscapedEverywhereItLands() throws {
        let response = try get("/movie/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E%3Cb%20x='", "www.familymoviesapp.com")
        #expect(response.status == 200)
        let page = HTMLProbe(response.text)
        #expect(page.text(ofFirst: "h1") == "Movie: \"><script>alert(1)</script><b x='")
        #expect(!response.text.contains("<script>alert"))
        #expect(!response.text.contains("<b x="))
        #expect(response.text.contains("Movie: &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b x=&#39;"))
        #expect(
            page.attribute("href", ofElementWithID: "open-app").map(ViewTokens.removed)
                == "mustc://Movie/%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E%3Cb%20x%3D%27")
        #expect(page.meta("og:title") == "Movie: \"><script>alert(1)</script><b x='")
        #expect(page.meta("apple-itunes-app")?.hasPrefix("app-id=1234567890, app-argument=https://www.familymoviesapp.com/movie/%22%3E%3Cscript") == true)
    }

    @Test func theGeneratedFilesCarryExtrasAndPassThroughSections() throws {
        let recipes = try JSONParser().parse(try get("/.well-known/apple-app-site-association", "www.donnysrecipes.com").body)
        let entry = try #require(recipes["applinks"]?["details"]?.arrayElements?.first)
        #expect(entry["components"]?.arrayElements?.first?["exclude"] == true)
        #expect(entry["paths"] == ["NOT /recipes/drafts/*", "/recipes/?*", "/search"])
        #expect(recipes["webcredentials"]?["apps"] == ["6QA73RGQR2.com.donny.recipes"])
        let cookpad = try JSONParser().parse(try get("/apple-app-site-association", "cookpad.com").body)
        #expect(cookpad["applinks"]?["details"]?.arrayElements?.first?["paths"] == nil)
    }
}
