import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// A site's `root`: the domain's `/` sent to a URL of the config's (the app's web site) with the
/// request's query carried along, logged as a redirect; without it, the not-found page as before.
/// In-process: the responder called directly.
@Suite("The domain's root")
struct SiteRootTests {
    static func configuration(root: JSONValue?, site: Int = 0) throws -> LinkhostConfiguration {
        try shippedConfiguration { document in
            guard let root, var sites = document["sites"]?.arrayElements, var members = sites[site].objectMembers else { return document }
            members.append(JSONMember("root", root))
            sites[site] = .object(members)
            return document.setting("sites", to: .array(sites))
        }
    }

    @Test func theRootRedirectsToTheConfiguredURLWithItsQuery() throws {
        let server = try LinkhostServer(configuration: try Self.configuration(root: "https://rowhni.app/"))
        defer { server.stop() }
        let root = try server.inProcess.request("GET", "/", host: "rowhni.com")
        #expect(root.status == 302)
        #expect(root.header("Location") == "https://rowhni.app/")
        #expect(root.header("Cache-Control") == "no-cache")
        let campaign = try server.inProcess.request("GET", "/?utm_source=qr&utm_campaign=launch", host: "rowhni.com")
        #expect(campaign.header("Location") == "https://rowhni.app/?utm_source=qr&utm_campaign=launch")
        // Only the root: links and other paths are answered as before, and the other site keeps its 404.
        #expect(try server.inProcess.request("GET", "/addfriend?code=ABC123", host: "rowhni.com").status == 200)
        #expect(try server.inProcess.request("GET", "/nothing-here", host: "rowhni.com").status == 404)
        #expect(try server.inProcess.request("GET", "/", host: "forums.somethingawful.com").status == 404)
    }

    @Test func withoutRootTheRootIsTheNotFoundPage() throws {
        let server = try LinkhostServer(configuration: try Self.configuration(root: nil))
        defer { server.stop() }
        let root = try server.inProcess.request("GET", "/", host: "rowhni.com")
        #expect(root.status == 404 && root.header("Location") == nil)
    }

    @Test(arguments: [
        (JSONValue.string("ftp://rowhni.app/"), "is not an http(s) URL"), (.string("rowhni.app"), "is not an http(s) URL"),
        (.number(JSONNumber(1)), "sites[0].root"),
    ])
    func aRootThatIsNoURLIsAConfigErrorWithItsPath(root: JSONValue, message: String) throws {
        #expect {
            try Self.configuration(root: root)
        } throws: { error in
            let text = "\(error)"
            return text.contains("sites[0].root") && text.contains(message)
        }
    }
}
