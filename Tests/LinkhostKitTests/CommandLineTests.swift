import DevCertificates
import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// Runs the built `linkhost` binary as an operator would.
@Suite("linkhost command line", .ownThread, .serialized)
struct CommandLineTests {
    /// `serve` with the shipped config on a free loopback port, logging into `folder` (never into
    /// the repository).
    static func serveArguments(logFolder folder: TemporaryDirectory, port: Int = 0) -> [String] {
        ["serve", "--config", ProjectPaths.shippedConfig, "--host", "127.0.0.1", "--port", "\(port)", "--log-db", folder.path + "/log.sqlite"]
    }

    /// Starts `linkhost serve` on a free port and returns the process and its port; `environment`
    /// replaces this process's when given (`AdminHealth.environment` turns the admin listener on).
    static func serve(
        logFolder folder: TemporaryDirectory, _ arguments: [String] = [], environment: [String: String]? = nil
    ) throws -> (ChildProcess, Int) {
        let child = try ChildProcess(ProjectPaths.linkhostBinary, serveArguments(logFolder: folder) + arguments, environment: environment)
        guard child.waitForOutput(containing: "listening on http://") else {
            Issue.record("serve did not start: \(child.standardError)")
            throw CancellationError()
        }
        let line = child.standardOutput.split(separator: "\n").first { $0.contains("listening on http://") } ?? ""
        let port = Int(line.split(separator: ":").last ?? "") ?? 0
        return (child, port)
    }

    @Test func theBinaryWasBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: ProjectPaths.linkhostBinary), "run `swift build` before `swift test`")
    }

    @Test func serveAnswersCurlAndStopsCleanlyOnSIGTERM() throws {
        let folder = try TemporaryDirectory()
        let (child, port) = try Self.serve(logFolder: folder)
        #expect(port > 0)
        // The issue's own acceptance check, with real curl.
        for path in ["/.well-known/apple-app-site-association", "/apple-app-site-association"] {
            let head = try ChildProcess.run("curl", ["-sI", "-H", "Host: forums.somethingawful.com", "http://127.0.0.1:\(port)\(path)"])
            #expect(head.output.hasPrefix("HTTP/1.1 200"), "\(head.output)")
            #expect(head.output.lowercased().contains("content-type: application/json\r\n"))
            #expect(!head.output.lowercased().contains("location:"))
        }
        let bot = try ChildProcess.run(
            "curl", ["-s", "-A", "AASA-Bot/1.0.0", "-H", "Host: rowhni.com", "http://127.0.0.1:\(port)/.well-known/apple-app-site-association"])
        let printed = try ChildProcess.run(ProjectPaths.linkhostBinary, ["aasa", "--host", "rowhni.com", "--config", ProjectPaths.shippedConfig])
        #expect(printed.status == 0)
        #expect(bot.output == printed.output)
        #expect(bot.output.contains("\"/\": \"/addfriend\""))
        let validated = try ChildProcess.run("env", ["python3", "-c", "import json,sys; json.load(open(sys.argv[1]))", ProjectPaths.shippedConfig])
        #expect(validated.status == 0)

        child.send(signal: SIGTERM)
        #expect(child.waitForExit(timeoutSeconds: 15) == 0)
        #expect(child.standardOutput.contains("linkhost stopped after 3 responses"))
        #expect(child.standardError.contains("signal=SIGTERM"))
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
    }

    /// The shipped config binds every address: the start line says so, not only the loopback URL.
    @Test("the start line names the address really bound: all addresses, then the URL to use from this machine")
    func startLineNamesAllAddresses() throws {
        let folder = try TemporaryDirectory()
        let child = try ChildProcess(
            ProjectPaths.linkhostBinary,
            ["serve", "--config", ProjectPaths.shippedConfig, "--host", "0.0.0.0", "--port", "0", "--log-db", folder.path + "/log.sqlite"])
        #expect(child.waitForOutput(containing: "listening on "), "\(child.standardError)")
        let line = child.standardOutput.split(separator: "\n").first { $0.contains("listening on ") } ?? ""
        #expect(line.contains("listening on all addresses (0.0.0.0), reachable from other machines; from this one: http://127.0.0.1:"), "\(line)")
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        #expect(try RawHTTPClient(port: port).request("GET", "/healthz").status == 200)
        child.send(signal: SIGTERM)
        #expect(child.waitForExit(timeoutSeconds: 15) == 0)
    }

    /// systemd's readiness protocol (`Type=notify`): a datagram socket the test binds stands in
    /// for the service manager and records what `serve` tells it.
    @Test("READY=1 once serving, WATCHDOG=1 as asked, RELOADING=1 then READY=1 around a reload, STOPPING=1 on SIGTERM")
    func readinessGoesToTheServiceManager() throws {
        let folder = try TemporaryDirectory()
        let socketPath = folder.path + "/notify"
        let listener = try NotifySocketListener(path: socketPath)
        defer { listener.close() }
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socketPath
        environment["WATCHDOG_USEC"] = "200000"  // as WatchdogSec=0.2 sets it: a ping every 0.1 s
        let child = try ChildProcess(ProjectPaths.linkhostBinary, Self.serveArguments(logFolder: folder), environment: environment)
        #expect(listener.waitForMessage(containing: "READY=1|STATUS=serving configuration generation 1|MAINPID=\(child.processIdentifier)|"))
        #expect(listener.waitForMessage(containing: "WATCHDOG=1|"))
        child.send(signal: SIGHUP)
        #expect(listener.waitForMessage(containing: "RELOADING=1|"))
        #expect(listener.waitForMessage(containing: "READY=1|STATUS=serving configuration generation 2|"))
        child.send(signal: SIGTERM)
        #expect(listener.waitForMessage(containing: "STOPPING=1|"))
        #expect(child.waitForExit(timeoutSeconds: 15) == 0)
    }

    @Test func sigintStopsGracefullyToo() throws {
        let folder = try TemporaryDirectory()
        let (child, port) = try Self.serve(logFolder: folder)
        #expect(try RawHTTPClient(port: port).request("GET", "/healthz").status == 200)
        child.send(signal: SIGINT)
        #expect(child.waitForExit(timeoutSeconds: 15) == 0)
    }

    /// A supervisor may signal the moment it reads "listening": the handler must already be there.
    @Test func aSignalTheMomentItListensStillStopsGracefully() throws {
        let folder = try TemporaryDirectory()
        for signal in [SIGTERM, SIGINT, SIGTERM] {
            let child = try ChildProcess(ProjectPaths.linkhostBinary, Self.serveArguments(logFolder: folder))
            #expect(child.waitForOutput(containing: "listening on http://"))
            child.send(signal: signal)
            #expect(child.waitForExit(timeoutSeconds: 15) == 0)
            #expect(child.standardOutput.contains("linkhost stopped after"))
        }
    }

    @Test func aBadConfigStopsServeBeforeItListensAndNamesThePath() throws {
        let folder = try TemporaryDirectory()
        let original = try String(contentsOfFile: ProjectPaths.shippedConfig, encoding: .utf8)
        let broken =
            original
            .replacingOccurrences(of: "\"scheme\": \"rowhni\"", with: "\"scheme\": \"rowhni://\"")
            .replacingOccurrences(of: "\"publicDirectory\": \"Public\"", with: "\"publicDirectory\": \"\(ProjectPaths.root)/Public\"")
        let path = try folder.write("config.json", broken)
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--config", path, "--port", "0"])
        #expect(result.status == 2)
        #expect(result.error.contains("\(path): 1 problem\n"))
        #expect(result.error.contains("sites[0].app.scheme: \"rowhni://\" is not a URL scheme. Fix: write \"rowhni\", the scheme alone without \"://\""))
        #expect(!result.output.contains("listening"))

        let syntax = try folder.write("syntax.json", "{\"sites\": [}")
        let syntaxResult = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--config", syntax])
        #expect(syntaxResult.status == 2)
        #expect(syntaxResult.error.contains("line 1, column 12"))
    }

    @Test func aPortInUseIsAClearRuntimeError() throws {
        let folder = try TemporaryDirectory()
        let (child, port) = try Self.serve(logFolder: folder)
        defer {
            child.send(signal: SIGTERM)
            _ = child.waitForExit()
        }
        let other = try TemporaryDirectory()
        let second = try ChildProcess.run(ProjectPaths.linkhostBinary, Self.serveArguments(logFolder: other, port: port))
        #expect(second.status == 1)
        #expect(second.error.contains("already in use"))
    }

    @Test func aasaPrintsTheServedBytesAndRefusesUnknownHosts() throws {
        let configuration = try ConfigurationLoader.load(path: ProjectPaths.shippedConfig)
        let printed = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["aasa", "--host", "Archives.SomethingAwful.com", "--config", ProjectPaths.shippedConfig])
        #expect(printed.status == 0)
        #expect(Array(printed.output.utf8) == configuration.site(id: "awful")?.aasa.bytes)
        let unknown = try ChildProcess.run(ProjectPaths.linkhostBinary, ["aasa", "--host", "example.org", "--config", ProjectPaths.shippedConfig])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("no site serves host example.org"))
        #expect(unknown.error.contains("rowhni.com, forums.somethingawful.com, archives.somethingawful.com"))
    }

    @Test(arguments: [["--help"], ["serve", "--help"], ["aasa", "--help"]])
    func helpIsAvailable(arguments: [String]) throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, arguments)
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: linkhost"))
        #expect(result.output.contains("--config") || arguments == ["--help"])
    }

    /// The flags go in before the checks, so they cannot make a config the checks would refuse.
    @Test func serveRefusesTheSamePortForHTTPSAndPlainHTTPFromTheFlags() throws {
        let folder = try TemporaryDirectory()
        let made = try ChildProcess.run(ProjectPaths.linkhostBinary, ["dev-cert", "--host", "rowhni.com", "--out", folder.path])
        #expect(made.status == 0)
        let result = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            Self.serveArguments(logFolder: folder, port: 18443) + [
                "--tls-port", "18443", "--tls-cert", folder.path + "/rowhni.com.pem", "--tls-key", folder.path + "/rowhni.com-key.pem",
            ])
        #expect(result.status == 2)
        #expect(result.error.contains("1 problem\n"))
        #expect(result.error.contains("server.tls.port: the HTTPS port 18443 (--tls-port) is also the plain-HTTP port (--port). Fix:"))
        #expect(!result.output.contains("listening"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/log.sqlite"))
    }

    /// The start-up lines give an HTTPS curl line only for hosts the certificate names; for the
    /// others they say so, rather than a line that fails curl's (and iOS's) name check.
    @Test func theBannerOffersHTTPSOnlyForHostsTheCertificateNames() throws {
        let folder = try TemporaryDirectory()
        #expect(try ChildProcess.run(ProjectPaths.linkhostBinary, ["dev-cert", "--host", "rowhni.com", "--out", folder.path]).status == 0)
        let tlsPort = try FreePort.find()
        let server = try ChildProcess(
            ProjectPaths.linkhostBinary,
            Self.serveArguments(logFolder: folder, port: try FreePort.find()) + [
                "--tls-port", "\(tlsPort)", "--tls-cert", folder.path + "/rowhni.com.pem", "--tls-key", folder.path + "/rowhni.com-key.pem",
            ])
        defer {
            server.send(signal: SIGTERM)
            _ = server.waitForExit()
        }
        #expect(server.waitForOutput(containing: "pid \(server.processIdentifier)"), "\(server.standardError)")
        let banner = server.standardOutput
        #expect(banner.contains("--resolve rowhni.com:\(tlsPort):127.0.0.1 https://rowhni.com:\(tlsPort)/.well-known/apple-app-site-association"))
        #expect(banner.contains("(HTTPS: the certificate does not name forums.somethingawful.com; it is for rowhni.com)"), "\(banner)")
        #expect(!banner.contains("https://forums.somethingawful.com"))
        #expect(DevCertificateAuthority.names(["*.example.com"], cover: "www.example.com"))
        #expect(!DevCertificateAuthority.names(["*.example.com"], cover: "example.com"))
        #expect(!DevCertificateAuthority.names(["*.example.com"], cover: "a.b.example.com"))
    }

    /// A config copied away from Public/ is one problem naming the folder, not one per text.
    @Test func aConfigAwayFromItsPublicFolderIsOneProblem() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("config.json", try String(contentsOfFile: ProjectPaths.shippedConfig, encoding: .utf8))
        let check = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--config", path])
        #expect(check.status == 1)
        let lines = check.output.split(separator: "\n")
        #expect(lines.count == 2, "\(check.output)")
        #expect(lines.first?.hasPrefix("error config server.publicDirectory: the public folder \(folder.path)/Public does not exist") == true)
        #expect(lines.last == "1 error, 0 warnings")
        let serve = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--config", path, "--port", "0"])
        #expect(serve.status == 2)
        #expect(serve.error.contains("\(path): 1 problem\n  - server.publicDirectory: the public folder \(folder.path)/Public does not exist"))
    }

    @Test func badFlagValuesNameTheAllowedValues() throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--log-level", "loud"])
        #expect(result.status == 64)
        #expect(result.error.contains("trace") && result.error.contains("critical"))
        let port = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--port", "70000"])
        #expect(port.status == 64)
        #expect(port.error.contains("--port 70000 is outside 0...65535"))
    }
}

@Suite("linkhost routes and link", .ownThread)
struct RoutesAndLinkCommandTests {
    @Test func routesListsEveryRuleWithItsAASAComponent() throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["routes", "--host", "rowhni.com", "--config", ProjectPaths.shippedConfig])
        #expect(result.status == 0)
        #expect(result.output.contains("site rowhni (rowhni.com): 2 rules"))
        #expect(
            result.output.contains(
                "1. addfriend\n   link: /addfriend?code={code}\n   app:  rowhni://addfriend?code={code}\n   aasa: {\"comment\":\"Friend invitations: /addfriend?code=XXXX\",\"/\":\"/addfriend\",\"?\":{\"code\":\"?*\"}}"
            ))
        let all = try ChildProcess.run(ProjectPaths.linkhostBinary, ["routes", "--config", ProjectPaths.shippedConfig])
        #expect(all.output.contains("site awful (forums.somethingawful.com, archives.somethingawful.com): 12 rules"))
        #expect(all.output.contains("passed on to the app when present: noseen"))
    }

    @Test(arguments: [
        (["addfriend", "code=TEST123"], "https://rowhni.com/addfriend?code=TEST123\nrowhni://addfriend?code=TEST123\n"),
        (
            ["addfriend", "code=ABC123", "--utm-source", "whatsapp", "--utm-medium", "chat", "--utm-campaign", "spring sale"],
            "https://rowhni.com/addfriend?code=ABC123&utm_source=whatsapp&utm_medium=chat&utm_campaign=spring%20sale\nrowhni://addfriend?code=ABC123\n"
        ),
        (
            ["threadPageSingleUser", "threadid=456", "pagenumber=2", "userid=7"],
            "https://forums.somethingawful.com/showthread.php?threadid=456&pagenumber=2&userid=7\nawful://threads/456/pages/2?userid=7\n"
        ),
        (
            ["post", "postid=789", "--host", "archives.somethingawful.com"],
            "https://archives.somethingawful.com/showthread.php?goto=post&postid=789\nawful://posts/789\n"
        ),
        (["lepersColony"], "https://forums.somethingawful.com/banlist.php\nawful://banlist\n"),
    ])
    func linkPrintsTheUniversalLinkAndTheAppURL(arguments: [String], expected: String) throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["link"] + arguments + ["--config", ProjectPaths.shippedConfig])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == expected)
    }

    /// The link's host is the one asked for whenever the site lists it, by a wildcard too, as the
    /// server decides; otherwise the site's primary host.
    @Test func linkUsesAHostTheSiteListsByWildcard() throws {
        let folder = try TemporaryDirectory()
        let site = exampleSite.replacingOccurrences(of: #""hosts": ["example.com"]"#, with: #""hosts": ["example.com", "*.example.net"]"#)
        let config = try folder.write("config.json", configText(sites: [site], server: #"{"publicDirectory": "\#(ProjectPaths.root)/Public"}"#))
        let wildcard = try ChildProcess.run(ProjectPaths.linkhostBinary, ["link", "item", "id=5", "--host", "Shop.Example.NET", "--config", config])
        #expect(wildcard.status == 0, "\(wildcard.error)")
        #expect(wildcard.output.hasPrefix("https://shop.example.net/x/5\n"))
        let exact = try ChildProcess.run(ProjectPaths.linkhostBinary, ["link", "item", "id=5", "--host", "example.com", "--config", config])
        #expect(exact.output.hasPrefix("https://example.com/x/5\n"))
    }

    /// A CDN that cannot be reached is named, so a typo in --cdn-base and being offline are told apart.
    @Test func anUnresolvableCDNIsNamed() throws {
        let result = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            ["cdn-check", "--cdn-base", "http://nonexistent.invalid", "--host", "rowhni.com", "--timeout", "5", "--config", ProjectPaths.shippedConfig])
        #expect(result.status == 2)
        #expect(result.output.contains("cannot resolve the CDN's host name nonexistent.invalid"), "\(result.output)")
    }

    /// Run from a folder without a config, every command says which file it tried, in the same words.
    @Test func aMissingConfigIsNamedByItsFullPathTheSameWayEverywhere() throws {
        let folder = try TemporaryDirectory()
        let expected = "cannot open the config file \(folder.path)/config.json: no such file"
        for arguments in [["link", "addfriend", "code=ABC123", "--qr", "png"], ["check"], ["routes"]] {
            let result = try ChildProcess.run(ProjectPaths.linkhostBinary, arguments, currentDirectory: folder.path)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains(expected), "\(arguments): \(result.error)")
            #expect(result.error.contains("pass --config PATH"), "\(arguments): \(result.error)")
        }
    }

    @Test(arguments: [
        (["nope"], "no rule named \"nope\""),
        (["addfriend"], "code is required"),
        (["addfriend", "code=x"], "code must be 4 to 32 letters (A–Z, a–z), digits, “-” or “_”"),
        (["addfriend", "code"], "\"code\" is not name=value"),
        (["addfriend", "code=TEST123", "colour=red"], "the rule has no parameter colour"),
        (["addfriend", "code=TEST123", "--host", "example.org"], "no site serves it"),
    ])
    func linkExplainsBadInput(arguments: [String], message: String) throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["link"] + arguments + ["--config", ProjectPaths.shippedConfig])
        #expect(result.status == 2)
        #expect(result.error.contains(message), "\(result.error)")
    }
}

@Suite("linkhost match and check", .ownThread)
struct MatchAndCheckCommandTests {
    /// The issue's acceptance: `linkhost match` answers for both shipped sites as the tables say.
    @Test(arguments: ProductTables.rows)
    func matchAnswersEveryTableRow(row: TableRow) throws {
        let result = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["match", "https://\(row.host)\(row.target)", "--json", "--config", ProjectPaths.shippedConfig])
        #expect(result.status == 0, "\(result.error)")
        let answer = try JSONParser().parse(result.output)
        #expect(answer["decision"] == "match")
        #expect(answer["details"] == 0)
        #expect(answer["component"]?.numberValue?.intValue != nil)
        #expect(answer["app"]?.stringValue == (row.host == "rowhni.com" ? "TEAMID.com.yaman.rowhni" : "TEAMID.com.awfulapp.Awful"))
        #expect(answer["explain"]?.stringValue?.hasPrefix("matched by applinks.details[0].components[") == true)
        #expect(answer["page"]?["rule"]?.stringValue == row.rule)
        #expect(answer["page"]?["appURL"]?.stringValue == row.appURL)
    }

    @Test func matchExplainsMissesAndExclusionsAndOtherHosts() throws {
        let miss = try ChildProcess.run(ProjectPaths.linkhostBinary, ["match", "https://rowhni.com/addfriend", "--config", ProjectPaths.shippedConfig])
        #expect(miss.status == 0)
        #expect(miss.output.contains("decision: none"))
        #expect(miss.output.contains("query item \"code\" is absent; pattern \"?*\" needs at least one character"))
        #expect(miss.output.contains("page:     400, broken link of rule addfriend: code is missing"))
        let seed = ProjectPaths.root + "/Tests/Fixtures/seed000-aasa.json"
        let other = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            ["match", "https://evil.example/showthread.php?threadid=1", "--aasa", seed, "--domain", "forums.somethingawful.com", "--json"])
        #expect(other.status == 0)
        let answer = try JSONParser().parse(other.output)
        #expect(answer["decision"] == "none")
        #expect(answer["details"] == .null)
        #expect(answer["component"] == .null)
        let legacy = try ChildProcess.run(
            ProjectPaths.linkhostBinary,
            ["match", "https://www.donnysrecipes.com/recipes/10/", "--aasa", ProjectPaths.root + "/Tests/Fixtures/seed004-aasa.json", "--json"])
        let legacyAnswer = try JSONParser().parse(legacy.output)
        #expect(legacyAnswer["decision"] == "match")
        #expect(legacyAnswer["component"] == 0)
        #expect(legacyAnswer["ruleKind"] == "paths")
        #expect(legacyAnswer["app"] == "6QA73RGQR2.com.donny.recipes")
        let unknownHost = try ChildProcess.run(
            ProjectPaths.linkhostBinary, ["match", "https://example.org/x", "--config", ProjectPaths.shippedConfig, "--json"])
        #expect(try JSONParser().parse(unknownHost.output)["decision"] == "none")
    }

    @Test(arguments: [
        (["match", "not a url", "--config"], "neither an absolute URL nor a path"),
        (["match", "https://rowhni.com/", "--aasa", "/nonexistent.json"], "--aasa /nonexistent.json: no such file"),
        (["match", "https://rowhni.com/", "--aasa", "Sources"], "--aasa Sources: is a folder, not a file"),
        (["match", "https://rowhni.com/", "--aasa", "/dev/null"], "--aasa /dev/null: the file is empty (0 bytes)"),
        (
            ["match", "https://x.example/", "--aasa", "Tests/Fixtures/seed000-aasa.json", "--domain", "a☃.example"],
            #"--domain "a☃.example" is not a valid host name: the label "a☃" holds U+2603"#
        ),
        (["match", "https://xn--zz.example/", "--aasa", "Tests/Fixtures/seed000-aasa.json"], #"has an invalid host: the label "xn--zz""#),
        (["check", "--aasa", "/nonexistent.json"], "--aasa /nonexistent.json: no such file"),
        (["check", "--aasa", "Sources"], "--aasa Sources: is a folder, not a file"),
        (["check", "--config", "Sources"], "/Sources: it is a folder, not a file"),
    ])
    func unusableInputExitsWith2AndSaysWhy(arguments: [String], message: String) throws {
        var all = arguments
        if all.last == "--config" { all.append(ProjectPaths.shippedConfig) }
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, all, currentDirectory: ProjectPaths.root)
        #expect(result.status == 2, "\(result.output) \(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
    }

    @Test func checkReportsAnEmptyFileAsEmpty() throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--aasa", "/dev/null"])
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("error AASA001 $: the file is empty (0 bytes)"), "\(result.output)")
    }

    @Test func matchCutsAVeryLongURLInTheMiddleAndKeepsItWholeInJSON() throws {
        let url = "https://rowhni.com/addfriend?code=" + String(repeating: "A", count: 3_000)
        let text = try ChildProcess.run(ProjectPaths.linkhostBinary, ["match", url, "--config", ProjectPaths.shippedConfig])
        #expect(text.status == 0)
        let lines = text.output.split(separator: "\n")
        #expect(lines.first?.count == 160)
        #expect(lines.allSatisfy { $0.count < 600 }, "\(text.output)")
        let json = try ChildProcess.run(ProjectPaths.linkhostBinary, ["match", url, "--config", ProjectPaths.shippedConfig, "--json"])
        #expect(try JSONParser().parse(json.output)["url"]?.stringValue == url)
    }

    @Test func checkPassesTheShippedConfigWithOnlyThePlaceholderWarnings() throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--config", ProjectPaths.shippedConfig])
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("0 errors, 2 warnings\n"))
        #expect(result.output.components(separatedBy: "warning AASA011").count == 3)
        let json = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--config", ProjectPaths.shippedConfig, "--json"])
        let findings = try #require(try JSONParser().parse(json.output).arrayElements)
        #expect(findings.count == 2)
        #expect(findings.allSatisfy { $0["code"] == "AASA011" && $0["severity"] == "warning" && $0["fix"]?.stringValue?.isEmpty == false })
        #expect(Set(findings.compactMap { $0["site"]?.stringValue }) == ["rowhni", "awful"])
    }

    @Test func checkFailsOnDisagreementsAndReadsAnyAASAFile() throws {
        let folder = try TemporaryDirectory()
        let bad = try folder.write(
            "config.json",
            """
            {"server": {"publicDirectory": "\(ProjectPaths.root)/Public"}, "sites": [{"id": "x", "hosts": ["x.com"],
             "app": {"name": "X", "appIDs": ["ABCDE12345.com.x"], "scheme": "x"},
             "aasa": {"extraComponents": [{"/": "/admin/*"}]},
             "links": [{"name": "item", "path": "/item/{id}", "params": {"id": {"type": "id"}}, "app": "x://i/{id}", "title": "I", "examples": ["/item/1"]}]}]}
            """)
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--config", bad, "--json"])
        #expect(result.status == 1)
        let findings = try #require(try JSONParser().parse(result.output).arrayElements)
        #expect(findings.map { $0["code"] } == ["LH003"])
        #expect(findings.first?["path"] == "sites[0].aasa")
        let legacy = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--aasa", ProjectPaths.root + "/Tests/Fixtures/seed004-aasa.json"])
        #expect(legacy.status == 0)
        #expect(legacy.output.contains("warning AASA017"))
        let broken = try folder.write("broken.json", "{\"applinks\": {\"details\": [{\"appIDs\": [\"bad id\"], \"components\": [{\"/\": \"*\"}]}]}}")
        let brokenResult = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--aasa", broken])
        #expect(brokenResult.status == 1)
        #expect(brokenResult.output.contains("error AASA010"))
        #expect(brokenResult.output.contains("warning AASA021"))
        let missing = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--aasa", folder.path + "/none.json"])
        #expect(missing.status == 2)
    }
}
