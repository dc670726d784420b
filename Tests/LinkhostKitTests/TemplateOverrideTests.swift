import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// Operators restyle pages by editing the templates, or one site by adding its own versions.
@Suite("Template overrides")
struct TemplateOverrideTests {
    @Test func aSitesOwnTemplateWinsForThatSiteOnly() throws {
        let folder = try TemporaryDirectory()
        let manager = FileManager.default
        try manager.copyItem(atPath: ProjectPaths.root + "/Public", toPath: folder.path + "/Public")
        try folder.write(
            "Public/templates/sites/rowhni/page.mustache",
            """
            <!DOCTYPE html><html lang="{{lang}}"><body><h1>Custom: {{heading}}</h1>{{#open}}<a id="open-app" href="{{url}}">{{label}}</a>{{/open}}</body></html>
            """)
        let configuration = try shippedConfiguration(settings: ["server.publicDirectory": .string(folder.path + "/Public")])
        let server = try LinkhostServer(configuration: configuration)
        defer { server.stop() }
        let rowhni = try server.inProcess.request("GET", "/addfriend?code=%22TEST123", host: "rowhni.com", headers: [("Accept-Language", "en")])
        #expect(HTMLProbe(rowhni.text).text(ofFirst: "h1") == "Custom: Broken invite link")
        let invite = try server.inProcess.request("GET", "/addfriend?code=TEST123", host: "rowhni.com")
        #expect(HTMLProbe(invite.text).attribute("href", ofElementWithID: "open-app").map(ViewTokens.removed) == "rowhni://addfriend?code=TEST123")
        let forums = try server.inProcess.request("GET", "/showthread.php?threadid=456", host: "forums.somethingawful.com")
        #expect(HTMLProbe(forums.text).text(ofFirst: "h1") == "Thread 456")
        #expect(!forums.text.contains("Custom:"))
    }

    @Test func aBrokenTemplateStopsTheServerWithTheFileNamed() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: ProjectPaths.root + "/Public", toPath: folder.path + "/Public")
        try folder.write("Public/templates/page.mustache", "{{#open}}unclosed section")
        let configuration = try shippedConfiguration(settings: ["server.publicDirectory": .string(folder.path + "/Public")])
        #expect {
            _ = try LinkhostServer(configuration: configuration)
        } throws: { error in
            "\(error)".contains("page.mustache does not parse")
        }
    }
}
