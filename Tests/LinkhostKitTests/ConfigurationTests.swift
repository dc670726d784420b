import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// A small valid site, for configs that vary one thing at a time.
let exampleSite = """
    {"id": "example", "hosts": ["example.com"],
     "app": {"name": "Example", "appIDs": ["ABCDE12345.com.example.app"], "scheme": "example"},
     "links": [{"name": "item", "path": "/x/{id}", "params": {"id": {"type": "id"}}, "app": "example://items/{id}",
                "title": "Item {id}", "examples": ["/x/1"]}]}
    """

func configText(sites: [String] = [exampleSite], server: String? = nil, log: String? = nil) -> String {
    let serverPart = server.map { "\"server\": \($0), " } ?? ""
    let logPart = log.map { ", \"log\": \($0)" } ?? ""
    return "{\(serverPart)\"sites\": [\(sites.joined(separator: ","))]\(logPart)}"
}

/// The problems a config text has, as "path: problem. Fix: fix" lines. Relative paths resolve
/// against the repository, so the shipped Public folder (strings, templates) is found.
func problems(in text: String, baseDirectory: String = ProjectPaths.root) -> [ConfigurationProblem] {
    do {
        _ = try ConfigurationLoader.parse(Array(text.utf8), baseDirectory: baseDirectory)
        return []
    } catch {
        return error.problems
    }
}

@Suite("Configuration")
struct ConfigurationTests {
    @Test func theShippedConfigHasBothSitesOfTheProductNote() throws {
        let configuration = try ConfigurationLoader.load(path: ProjectPaths.shippedConfig)
        #expect(configuration.sites.map(\.id) == ["rowhni", "awful"])
        let rowhni = try #require(configuration.site(id: "rowhni"))
        #expect(rowhni.hosts == ["rowhni.com"])
        #expect(rowhni.app.appIDs == ["TEAMID.com.yaman.rowhni"])
        #expect(rowhni.app.scheme == "rowhni")
        let awful = try #require(configuration.site(id: "awful"))
        #expect(awful.hosts == ["forums.somethingawful.com", "archives.somethingawful.com"])
        #expect(awful.app.appIDs == ["TEAMID.com.awfulapp.Awful"])
        #expect(awful.app.scheme == "awful")
        #expect(configuration.server.port == 8080)
        #expect(configuration.server.unknownHost == .notFound)
    }

    @Test func defaultsApplyWhenServerSettingsAreLeftOut() throws {
        let configuration = try ConfigurationLoader.parse(Array(configText().utf8), baseDirectory: ProjectPaths.root)
        #expect(configuration.server.publicDirectory == ProjectPaths.root + "/Public")
        var server = configuration.server
        server.publicDirectory = ServerSettings.defaults.publicDirectory
        #expect(server == ServerSettings.defaults)
    }

    @Test func readsEveryServerSetting() throws {
        let server = """
            {"listen": {"address": "127.0.0.1", "port": 9000}, "unknownHost": "example", "aasaCacheControl": "max-age=60",
             "limits": {"threads": 3, "connections": 100, "connectionsPerAddress": 0, "connectionTimeoutSeconds": 5,
                        "connectionMemoryBytes": 8192, "requestBodyBytes": 10, "shutdownGraceSeconds": 1}}
            """
        let settings = try ConfigurationLoader.parse(Array(configText(server: server).utf8), baseDirectory: ProjectPaths.root).server
        #expect(settings.listenAddress == "127.0.0.1")
        #expect(settings.port == 9000)
        #expect(settings.unknownHost == .site("example"))
        #expect(settings.aasaCacheControl == "max-age=60")
        #expect(settings.threads == 3)
        #expect(settings.connectionLimit == 100)
        #expect(settings.connectionsPerAddress == 0)
        #expect(settings.connectionTimeoutSeconds == 5)
        #expect(settings.connectionMemoryBytes == 8192)
        #expect(settings.requestBodyBytes == 10)
        #expect(settings.shutdownGraceSeconds == 1)
    }

    @Test func aSyntaxErrorNamesLineColumnAndPath() {
        let found = problems(in: "{\n  \"sites\": [\n    {\"id\": \"x\",}\n  ]\n}")
        #expect(found.count == 1)
        #expect(found.first?.problem.contains("line 3, column") == true)
        #expect(found.first?.problem.contains("trailing comma") == true)
        #expect(found.first?.path.description == "sites[0]")
    }

    @Test func unknownKeysAreNamedWithTheLikelyIntendedKey() {
        let site = exampleSite.replacingOccurrences(
            of: "\"appIDs\": [\"ABCDE12345.com.example.app\"], \"scheme\"", with: "\"appIds\": [\"ABCDE12345.com.example.app\"], \"scheme\"")
        let found = problems(in: configText(sites: [site]))
        let unknown = found.first { $0.path.description == "sites[0].app.appIds" }
        #expect(unknown?.problem == "unknown key \"appIds\" in the app")
        #expect(unknown?.fix.hasPrefix("did you mean \"appIDs\"?") == true)
        // And the real key is then missing, which is reported too, in the same run.
        #expect(found.contains { $0.path.description == "sites[0].app.appIDs" && $0.problem.contains("missing") })
    }

    @Test func commentKeysAreIgnored() throws {
        let text = configText(server: #"{"//": "a note", "listen": {"//": "another", "port": 1234}}"#)
        #expect(try ConfigurationLoader.parse(Array(text.utf8), baseDirectory: ProjectPaths.root).server.port == 1234)
    }

    @Test(arguments: [
        ("https://rowhni.com", "is a URL", "\"rowhni.com\""),
        ("rowhni.com/addfriend", "has a path", "\"rowhni.com\""),
        ("rowhni.com:443", "has a port", "\"rowhni.com\""),
        ("bücher.de", "internationalised", "Punycode"),
        ("a.*.com", "wildcard", "leading"),
        ("-bad-.com", "not a valid host name", "letters, digits"),
        ("", "not a host name", "example.com"),
    ])
    func badHostsAreExplained(host: String, problem: String, fix: String) throws {
        let site = exampleSite.replacingOccurrences(of: "[\"example.com\"]", with: "[\"\(host)\"]")
        let found = problems(in: configText(sites: [site]))
        let entry = try #require(found.first { $0.path.description == "sites[0].hosts[0]" }, "\(found)")
        #expect(entry.problem.contains(problem), "\(entry)")
        #expect(entry.fix.contains(fix), "\(entry)")
    }

    @Test func hostsAreLowerCasedAndTrailingDotsDropped() throws {
        let site = exampleSite.replacingOccurrences(of: "[\"example.com\"]", with: "[\"Example.COM.\", \"*.Example.com\"]")
        let configuration = try ConfigurationLoader.parse(Array(configText(sites: [site]).utf8), baseDirectory: ProjectPaths.root)
        #expect(configuration.sites[0].hosts == ["example.com", "*.example.com"])
    }

    @Test func aHostListedByTwoSitesIsRefused() {
        let second = exampleSite.replacingOccurrences(of: "\"id\": \"example\"", with: "\"id\": \"second\"")
        let found = problems(in: configText(sites: [exampleSite, second]))
        #expect(
            found.map(\.description) == [
                "sites[1].hosts[0]: \"example.com\" is also listed at sites[0].hosts[0]. Fix: list each host under one site only; one host serves one AASA file"
            ])
    }

    @Test func duplicateSiteIDsAreRefused() {
        let second = exampleSite.replacingOccurrences(of: "[\"example.com\"]", with: "[\"other.com\"]")
        let found = problems(in: configText(sites: [exampleSite, second]))
        #expect(found.map(\.path.description) == ["sites[1].id"])
    }

    @Test(arguments: [
        ("\"appIDs\": [\"ABCDE12345.com.example.app\"]", "\"appIDs\": [\"com.example.app\"]", "sites[0].app.appIDs[0]", "team prefix"),
        ("\"appIDs\": [\"ABCDE12345.com.example.app\"]", "\"appIDs\": [\"ABCDE12345\"]", "sites[0].app.appIDs[0]", "no team prefix"),
        ("\"appIDs\": [\"ABCDE12345.com.example.app\"]", "\"appIDs\": []", "sites[0].app.appIDs", "is empty"),
        ("\"scheme\": \"example\"", "\"scheme\": \"example://\"", "sites[0].app.scheme", "is not a URL scheme"),
        ("\"scheme\": \"example\"", "\"scheme\": \"https\"", "sites[0].app.scheme", "the web's scheme"),
        ("\"scheme\": \"example\"", "\"scheme\": \"example\", \"appStoreID\": \"id123\"", "sites[0].app.appStoreID", "numeric"),
        ("\"name\": \"Example\", ", "", "sites[0].app.name", "missing"),
        ("\"id\": \"example\"", "\"id\": \"Ex ample\"", "sites[0].id", "not a valid site id"),
    ])
    func badAppSettingsAreExplained(original: String, replacement: String, path: String, problem: String) throws {
        let site = exampleSite.replacingOccurrences(of: original, with: replacement)
        #expect(site != exampleSite)
        let found = problems(in: configText(sites: [site]))
        let entry = try #require(found.first { $0.path.description == path }, "\(found)")
        #expect(entry.problem.contains(problem), "\(entry)")
        #expect(!entry.fix.isEmpty)
    }

    @Test(arguments: [
        (#"{"listen": {"port": 70000}}"#, "server.listen.port", "outside 0...65535"),
        (#"{"listen": {"port": "8080"}}"#, "server.listen.port", "must be a whole number"),
        (#"{"listen": {"address": "example.com"}}"#, "server.listen.address", "not an IP address"),
        (#"{"unknownHost": "nowhere"}"#, "server.unknownHost", "neither \"404\" nor the id of a site"),
        (#"{"unknownHost": 404}"#, "server.unknownHost", "a number is neither"),
        (#"{"limits": {"threads": -1}}"#, "server.limits.threads", "outside 0...256"),
        (#"{"limits": {"conections": 5}}"#, "server.limits.conections", "unknown key"),
        (#"{"aasaCacheControl": ""}"#, "server.aasaCacheControl", "empty"),
        (#"{"admin": {"limits": {"connections": 0}}}"#, "server.admin.limits.connections", "outside 1...100000"),
        (#"{"admin": {"limits": {"connectionTimeoutSeconds": 0}}}"#, "server.admin.limits.connectionTimeoutSeconds", "outside 1...3600"),
    ])
    func badServerSettingsAreExplained(server: String, path: String, problem: String) throws {
        let found = problems(in: configText(server: server))
        let entry = try #require(found.first { $0.path.description == path }, "\(found)")
        #expect(entry.problem.contains(problem), "\(entry)")
    }

    @Test func theUnknownHostFixListsTheChoices() throws {
        let found = problems(in: configText(server: #"{"unknownHost": "nowhere"}"#))
        #expect(found.first?.fix == "use one of \"404\", \"example\"")
    }

    @Test func everyProblemIsReportedInOneRun() {
        let site = #"{"id": "BAD", "hosts": ["http://x.com"], "app": {"name": "", "appIDs": ["x"], "scheme": "a b"}, "aasa": [], "links": []}"#
        let found = problems(in: configText(sites: [site], server: #"{"listen": {"port": -1}}"#))
        #expect(
            Set(found.map(\.path.description)) == [
                "sites[0].id", "sites[0].hosts[0]", "sites[0].app.name", "sites[0].app.appIDs[0]", "sites[0].app.scheme", "sites[0].aasa", "sites[0].links",
                "server.listen.port",
            ])
    }

    @Test func aGeneratedAASALargerThan128KBIsRefused() throws {
        let rules = (0..<900).map {
            #"{"name": "rule\#($0)", "path": "/a/very/long/path/segment/number/\#($0)/{id}", "params": {"id": {"type": "id"}}, "app": "example://items/\#($0)/{id}", "title": "Item {id}", "comment": "a deliberately long comment to make the generated file large, rule \#($0)"}"#
        }
        let site = exampleSite.replacingOccurrences(of: #""links": [{"name": "item""#, with: #""links": [\#(rules.joined(separator: ",")), {"name": "item""#)
        let found = problems(in: configText(sites: [site]))
        #expect(found.count == 1)
        #expect(found.first?.path.description == "sites[0].aasa")
        #expect(found.first?.problem.contains("iOS refuses files over 131072 bytes") == true)
    }

    @Test func theAASAOptionsAreChecked() {
        let notObject = exampleSite.replacingOccurrences(
            of: #""links": ["#, with: #""aasa": {"webcredentials": [], "extraComponents": {}, "legacy": true}, "links": ["#)
        let found = problems(in: configText(sites: [notObject])).map(\.path.description)
        #expect(found == ["sites[0].aasa.legacy", "sites[0].aasa.extraComponents", "sites[0].aasa.webcredentials"])
    }

    @Test func anAASAFileIsServedByteExactAndMustBeValidJSON() throws {
        let folder = try TemporaryDirectory()
        let original = "{\"applinks\":{\"details\":[{\"appIDs\":[\"ABCDE12345.com.example.app\"],\"components\":[{\"/\":\"/x/?*\"}]}]}}\n"
        try folder.write("aasa.json", original)
        let site = exampleSite.replacingOccurrences(of: #""links": ["#, with: #""aasa": {"file": "aasa.json"}, "links": ["#)
        let server = #"{"publicDirectory": "\#(ProjectPaths.root)/Public"}"#
        let configuration = try ConfigurationLoader.parse(Array(configText(sites: [site], server: server).utf8), baseDirectory: folder.path)
        #expect(configuration.sites[0].aasa.bytes == Array(original.utf8))
        #expect(configuration.sites[0].aasa.origin == folder.path + "/aasa.json")

        try folder.write("aasa.json", "{\"applinks\": {\"details\": [],}}")
        let broken = problems(in: configText(sites: [site], server: server), baseDirectory: folder.path)
        #expect(broken.first?.path.description == "sites[0].aasa.file")
        #expect(broken.first?.problem.contains("is not valid JSON (line 1, column 29)") == true)

        try folder.write("aasa.json", bytes: Array(("{\"applinks\": {\"details\": [], \"pad\": \"" + String(repeating: "x", count: 140_000) + "\"}}").utf8))
        let big = problems(in: configText(sites: [site], server: server), baseDirectory: folder.path)
        #expect(big.first?.problem.contains("over 131072 bytes") == true)

        try folder.write("aasa.json", "[]")
        let notObject = problems(in: configText(sites: [site], server: server), baseDirectory: folder.path)
        #expect(notObject.first?.problem.contains("must be a JSON object") == true)

        try folder.write("aasa.json", "{\"links\": {}}")
        let noService = problems(in: configText(sites: [site], server: server), baseDirectory: folder.path)
        #expect(noService.first?.problem.contains("none of the services") == true)

        let missing = problems(in: configText(sites: [site], server: server), baseDirectory: folder.path + "/nowhere")
        #expect(missing.first?.problem.contains("cannot read") == true)
    }

    @Test func aMissingConfigFileSaysHowToPointAtOne() {
        do {
            _ = try ConfigurationLoader.load(path: "/nonexistent/config.json")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.description.contains("no such file"))
            #expect(error.problems.first?.fix.contains("--config") == true)
        }
    }
}
