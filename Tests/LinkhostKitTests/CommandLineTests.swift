import Foundation
import LinkhostKit
import TestSupport
import Testing

/// Runs the built `linkhost` binary as an operator would.
@Suite("linkhost command line", .serialized)
struct CommandLineTests {
    /// Starts `linkhost serve` on a free port and returns the process and its port.
    static func serve(_ arguments: [String] = []) throws -> (ChildProcess, Int) {
        let child = try ChildProcess(ProjectPaths.linkhostBinary, ["serve", "--config", ProjectPaths.shippedConfig, "--host", "127.0.0.1", "--port", "0"] + arguments)
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
        let (child, port) = try Self.serve()
        #expect(port > 0)
        // The issue's own acceptance check, with real curl.
        for path in ["/.well-known/apple-app-site-association", "/apple-app-site-association"] {
            let head = try ChildProcess.run("/usr/bin/curl", ["-sI", "-H", "Host: forums.somethingawful.com", "http://127.0.0.1:\(port)\(path)"])
            #expect(head.output.hasPrefix("HTTP/1.1 200"), "\(head.output)")
            #expect(head.output.lowercased().contains("content-type: application/json\r\n"))
            #expect(!head.output.lowercased().contains("location:"))
        }
        let bot = try ChildProcess.run("/usr/bin/curl", ["-s", "-A", "AASA-Bot/1.0.0", "-H", "Host: rowhni.com", "http://127.0.0.1:\(port)/.well-known/apple-app-site-association"])
        let printed = try ChildProcess.run(ProjectPaths.linkhostBinary, ["aasa", "--host", "rowhni.com", "--config", ProjectPaths.shippedConfig])
        #expect(printed.status == 0)
        #expect(bot.output == printed.output)
        #expect(bot.output.contains("\"/\": \"/addfriend\""))
        let validated = try ChildProcess.run("/usr/bin/env", ["python3", "-c", "import json,sys; json.load(open(sys.argv[1]))", ProjectPaths.shippedConfig])
        #expect(validated.status == 0)

        child.send(signal: SIGTERM)
        #expect(child.waitForExit(timeoutSeconds: 15) == 0)
        #expect(child.standardOutput.contains("linkhost stopped after 3 responses"))
        #expect(child.standardError.contains("signal=SIGTERM"))
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
    }

    @Test func sigintStopsGracefullyToo() throws {
        let (child, port) = try Self.serve()
        #expect(try RawHTTPClient(port: port).request("GET", "/healthz").status == 200)
        child.send(signal: SIGINT)
        #expect(child.waitForExit(timeoutSeconds: 15) == 0)
    }

    @Test func aBadConfigStopsServeBeforeItListensAndNamesThePath() throws {
        let folder = try TemporaryDirectory()
        let original = try String(contentsOfFile: ProjectPaths.shippedConfig, encoding: .utf8)
        let broken = original.replacingOccurrences(of: "\"scheme\": \"rowhni\"", with: "\"scheme\": \"rowhni://\"")
        let path = try folder.write("config.json", broken)
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--config", path, "--port", "0"])
        #expect(result.status == 2)
        #expect(result.error.contains("sites[0].app.scheme: \"rowhni://\" is not a URL scheme"))
        #expect(result.error.contains("Fix:"))
        #expect(!result.output.contains("listening"))

        let syntax = try folder.write("syntax.json", "{\"sites\": [}")
        let syntaxResult = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--config", syntax])
        #expect(syntaxResult.status == 2)
        #expect(syntaxResult.error.contains("line 1, column 12"))
    }

    @Test func aPortInUseIsAClearRuntimeError() throws {
        let (child, port) = try Self.serve()
        defer {
            child.send(signal: SIGTERM)
            _ = child.waitForExit()
        }
        let second = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--config", ProjectPaths.shippedConfig, "--host", "127.0.0.1", "--port", "\(port)"])
        #expect(second.status == 1)
        #expect(second.error.contains("already in use"))
    }

    @Test func aasaPrintsTheServedBytesAndRefusesUnknownHosts() throws {
        let configuration = try ConfigurationLoader.load(path: ProjectPaths.shippedConfig)
        let printed = try ChildProcess.run(ProjectPaths.linkhostBinary, ["aasa", "--host", "Archives.SomethingAwful.com", "--config", ProjectPaths.shippedConfig])
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

    @Test func badFlagValuesNameTheAllowedValues() throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--log-level", "loud"])
        #expect(result.status == 64)
        #expect(result.error.contains("trace") && result.error.contains("critical"))
        let port = try ChildProcess.run(ProjectPaths.linkhostBinary, ["serve", "--port", "70000"])
        #expect(port.status == 64)
        #expect(port.error.contains("--port 70000 is outside 0...65535"))
    }
}

@Suite("linkhost routes and link")
struct RoutesAndLinkCommandTests {
    @Test func routesListsEveryRuleWithItsAASAComponent() throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["routes", "--host", "rowhni.com", "--config", ProjectPaths.shippedConfig])
        #expect(result.status == 0)
        #expect(result.output.contains("site rowhni (rowhni.com): 2 rules"))
        #expect(result.output.contains("1. addfriend\n   link: /addfriend?code={code}\n   app:  rowhni://addfriend?code={code}\n   aasa: {\"comment\":\"Friend invitations: /addfriend?code=XXXX\",\"/\":\"/addfriend\",\"?\":{\"code\":\"?*\"}}"))
        let all = try ChildProcess.run(ProjectPaths.linkhostBinary, ["routes", "--config", ProjectPaths.shippedConfig])
        #expect(all.output.contains("site awful (forums.somethingawful.com, archives.somethingawful.com): 12 rules"))
        #expect(all.output.contains("passed on to the app when present: noseen"))
    }

    @Test(arguments: [
        (["addfriend", "code=TEST123"], "https://rowhni.com/addfriend?code=TEST123\nrowhni://addfriend?code=TEST123\n"),
        (["addfriend", "code=ABC123", "--utm-source", "whatsapp", "--utm-medium", "chat", "--utm-campaign", "spring sale"],
         "https://rowhni.com/addfriend?code=ABC123&utm_source=whatsapp&utm_medium=chat&utm_campaign=spring%20sale\nrowhni://addfriend?code=ABC123\n"),
        (["threadPageSingleUser", "threadid=456", "pagenumber=2", "userid=7"],
         "https://forums.somethingawful.com/showthread.php?threadid=456&pagenumber=2&userid=7\nawful://threads/456/pages/2?userid=7\n"),
        (["post", "postid=789", "--host", "archives.somethingawful.com"], "https://archives.somethingawful.com/showthread.php?goto=post&postid=789\nawful://posts/789\n"),
        (["lepersColony"], "https://forums.somethingawful.com/banlist.php\nawful://banlist\n"),
    ])
    func linkPrintsTheUniversalLinkAndTheAppURL(arguments: [String], expected: String) throws {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["link"] + arguments + ["--config", ProjectPaths.shippedConfig])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == expected)
    }

    @Test(arguments: [
        (["nope"], "no rule named \"nope\""),
        (["addfriend"], "code is required"),
        (["addfriend", "code=x"], "code is not a valid inviteCode"),
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
