import AssetLinks
import Foundation
import LinkLog
import LinkLogSQLite
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// `/.well-known/assetlinks.json`: generated per site from `app.android`, served like the AASA file.
@Suite("assetlinks.json hosting")
struct AssetLinksHostingTests {
    static let path = "/.well-known/assetlinks.json"

    @Test func aSiteWithAnAndroidAppServesItsGeneratedFileExactly() throws {
        let configuration = try AndroidFixture.configuration()
        let server = try LinkhostServer(configuration: configuration)
        defer { server.stop() }
        let expected = try #require(configuration.site(id: "rowhni")?.assetLinks).bytes
        let response = try server.inProcess.request("GET", Self.path, host: "rowhni.com")
        expectServedExactly(response, expected)
        let document = try JSONParser().parse(response.body)
        let statement = try #require(document.arrayElements?.first)
        #expect(statement["target"]?["package_name"] == .string(AndroidFixture.package))
        #expect(statement["target"]?["sha256_cert_fingerprints"] == .array(AndroidFixture.fingerprints.map { .string($0) }))
        #expect(statement["relation"] == ["delegate_permission/common.handle_all_urls"])
        #expect(AssetLinksValidator().validate(bytes: response.body).isEmpty)
    }

    @Test func aRepeatFetchWithTheETagGets304AndHEADGetsTheHeaders() throws {
        let server = try LinkhostServer(configuration: try AndroidFixture.configuration())
        defer { server.stop() }
        let first = try server.inProcess.request("GET", Self.path, host: "rowhni.com")
        let tag = try #require(first.header("ETag"))
        for header in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
            let again = try server.inProcess.request("GET", Self.path, host: "rowhni.com", headers: [("If-None-Match", header)])
            #expect(again.status == 304, "If-None-Match: \(header)")
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == tag)
        }
        let stale = try server.inProcess.request("GET", Self.path, host: "rowhni.com", headers: [("If-None-Match", "\"stale\"")])
        #expect(stale.status == 200 && stale.body == first.body)
        let head = try server.inProcess.request("HEAD", Self.path, host: "rowhni.com")
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == "\(first.body.count)")
        #expect(head.header("Content-Type") == "application/json")
        #expect(head.body.isEmpty)
        let post = try server.inProcess.request("POST", Self.path, host: "rowhni.com")
        #expect(post.status == 405)
    }

    @Test func aSiteWithoutAnAndroidAppAnswers404() throws {
        let server = try LinkhostServer(configuration: try AndroidFixture.configuration())
        defer { server.stop() }
        for host in ["forums.somethingawful.com", "archives.somethingawful.com"] {
            let response = try server.inProcess.request("GET", Self.path, host: host)
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(response.text.contains("no Android app"))
            #expect(response.header("Location") == nil)
        }
    }

    @Test func everyAnswerIsLoggedAsKindAssetLinks() throws {
        let folder = try TemporaryDirectory("linkhost-assetlinks-log")
        let database = folder.path + "/log.sqlite"
        let server = try LinkhostServer(configuration: try AndroidFixture.configuration(logDatabase: database))
        let first = try server.inProcess.request("GET", Self.path, host: "rowhni.com", headers: [("User-Agent", "Google-Digital-Asset-Links")])
        let tag = try #require(first.header("ETag"))
        _ = try server.inProcess.request("GET", Self.path, host: "rowhni.com", headers: [("If-None-Match", tag)])
        _ = try server.inProcess.request("HEAD", Self.path, host: "rowhni.com")
        _ = try server.inProcess.request("GET", Self.path, host: "forums.somethingawful.com")
        server.stop()
        let rows = try LogReader(databasePath: database).rows(LogFilter(kind: "assetlinks"))
        #expect(rows.count == 4)
        #expect(rows.map(\.status).sorted() == [200, 200, 304, 404])
        #expect(Set(rows.map(\.siteID)) == ["rowhni", "awful"])
        #expect(rows.allSatisfy { $0.path == Self.path })
        // The statistics count the new kind like any other.
        let stats = try LogReader(databasePath: database).stats(by: .kind)
        #expect(stats.first { $0.key == "assetlinks" }?.hits == 4)
    }

    @Test func healthReportsTheFileOfSitesThatServeOne() throws {
        let server = try LinkhostServer(configuration: try AndroidFixture.configuration())
        defer { server.stop() }
        let health = server.healthDetails
        let sites = try #require(health["sites"]?.arrayElements)
        let served = try server.inProcess.request("GET", Self.path, host: "rowhni.com")
        #expect(sites.first { $0["id"] == "rowhni" }?["assetLinksETag"] == .string(served.header("ETag") ?? ""))
        #expect(sites.first { $0["id"] == "rowhni" }?["assetLinksBytes"] == .number(JSONNumber(served.body.count)))
        #expect(sites.first { $0["id"] == "awful" }?["assetLinksETag"] == nil)
    }
}
