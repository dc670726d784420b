import Foundation
import TestSupport
import Testing

@testable import LinkhostKit

@Suite("Static files", .ownThread)
struct StaticFileTests {
    let shared: SharedServer

    init() throws { shared = try SharedServer() }

    @Test(arguments: [
        ("/static/linkhost.css", "text/css; charset=utf-8"),
        ("/static/linkhost.js", "text/javascript; charset=utf-8"),
        ("/static/og/rowhni.png", "image/png"),
        ("/static/icon.png", "image/png"),
        ("/robots.txt", "text/plain; charset=utf-8"),
    ])
    func servesWithTypeCacheHeadersAndValidators(path: String, type: String) throws {
        let response = try shared.get(path, host: "rowhni.com")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == type)
        #expect(response.header("Cache-Control") == "public, max-age=86400")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        let file = ProjectPaths.root + "/Public" + (path == "/robots.txt" ? "/static/robots.txt" : path)
        #expect(response.body == Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        let tag = try #require(response.header("ETag"))
        let again = try shared.get(path, host: "rowhni.com", headers: [("If-None-Match", tag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
    }

    /// What the HTTP layer sends with a 304: no body, and a Content-Length only of the 200's length
    /// (RFC 9110, section 8.6).
    @Test func a304OnTheWireCarriesOnlyThe200sLength() throws {
        let listening = try SharedServer(listening: true)
        let client = try RawHTTPClient(port: listening.port)
        for path in ["/static/linkhost.css", "/static/linkhost.js", "/static/og/rowhni.png", "/static/icon.png", "/robots.txt"] {
            let response = try client.request("GET", path, host: "rowhni.com")
            let tag = try #require(response.header("ETag"))
            let again = try client.request("GET", path, host: "rowhni.com", headers: [("If-None-Match", tag)])
            #expect(again.status == 304, "\(path)")
            #expect(again.body.isEmpty)
            #expect(again.headerValues("Content-Length").allSatisfy { $0 == "\(response.body.count)" }, "\(path)")
        }
    }

    @Test(arguments: [
        "/static/../config.json", "/static/%2e%2e/config.json", "/static/..%2fconfig.json", "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/static//etc/passwd", "/static/..\\config.json", "/static/..%5cconfig.json", "/static/", "/static", "/static/.hidden",
        "/static/linkhost.css%00.png", "/static/LINKHOST.CSS", "/static/og", "/static/%2E%2E/Package.swift",
    ])
    func pathsOutsideTheFolderOrNotFilesAre404(path: String) throws {
        let response = try shared.get(path, host: "rowhni.com")
        #expect(response.status == 404, "\(path)")
        #expect(!response.text.contains("\"sites\""))
        #expect(!response.text.contains("root:"))
        #expect(!response.text.contains("PackageDescription"))
    }

    @Test func linksOutOfTheFolderAndHiddenFilesAreNotServed() throws {
        let folder = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try outside.write("secret.txt", "top secret")
        try folder.write("static/ok.txt", "fine")
        try folder.write("static/.env", "hidden")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/static/leak.txt", withDestinationPath: outside.path + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/static/up", withDestinationPath: outside.path)
        let files = try StaticFiles.load(from: folder.path + "/static")
        #expect(files.paths == ["/static/ok.txt"])
        #expect(files.response(for: "/static/ok.txt", ifNoneMatch: nil)?.body == Array("fine".utf8))
    }

    @Test func mediaTypesAreByExtensionWithASafeDefault() {
        #expect(MediaTypes.type(forFileName: "a/b.CSS") == "text/css; charset=utf-8")
        #expect(MediaTypes.type(forFileName: "x.svg") == "image/svg+xml")
        #expect(MediaTypes.type(forFileName: "noextension") == "application/octet-stream")
        #expect(MediaTypes.type(forFileName: "dir.v2/file") == "application/octet-stream")
        #expect(MediaTypes.type(forFileName: "archive.tar.gz") == "application/octet-stream")
    }
}

@Suite("Language choice")
struct LanguageNegotiationTests {
    @Test(
        arguments: [
            (nil, "de"),
            ("", "de"),
            ("en", "en"),
            ("en-GB,en;q=0.9", "en"),
            ("de-AT", "de"),
            ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7", "en"),
            ("de;q=0.5, en;q=0.6", "en"),
            ("en;q=0.5, de;q=0.5", "en"),
            ("en;q=0", "de"),
            ("de;q=0, en;q=0", "de"),
            ("*", "de"),
            ("fr, *;q=0.1", "de"),
            ("de;q=0, *", "en"),
            ("en;q=abc", "en"),
            ("zz,;;;,q=,", "de"),
            ("EN", "en"),
        ] as [(String?, String)])
    func picksByQuality(header: String?, expected: String) {
        #expect(LanguageNegotiation.choose(header, available: ["de", "en"], defaultLanguage: "de") == expected)
    }
}
