import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// `server.pidFile` and `server.cdnCheck`: read, resolved, and refused with their JSON path and a fix.
@Suite("Configuration: pid file and CDN check")
struct OperationsConfigurationTests {
    @Test func bothAreOffUnlessSet() throws {
        let configuration = try ConfigurationLoader.parse(Array(configText().utf8), baseDirectory: ProjectPaths.root)
        #expect(configuration.server.pidFile == nil)
        #expect(configuration.server.cdnCheck == nil)
        let zero = try ConfigurationLoader.parse(Array(configText(server: #"{"cdnCheck": {"intervalHours": 0}}"#).utf8), baseDirectory: ProjectPaths.root)
        #expect(zero.server.cdnCheck == nil, "0 hours turns the check off")
    }

    @Test func aPidFileIsTakenFromTheConfigsFolderAndACheckReadsEveryKey() throws {
        let server = #"{"pidFile": "run/linkhost.pid", "cdnCheck": {"intervalHours": 0.5, "cdnBase": "http://127.0.0.1:8081/", "timeoutSeconds": 3}}"#
        let configuration = try ConfigurationLoader.parse(Array(configText(server: server).utf8), baseDirectory: ProjectPaths.root)
        #expect(configuration.server.pidFile == ProjectPaths.root + "/run/linkhost.pid")
        #expect(configuration.server.cdnCheck == CDNCheckSettings(intervalHours: 0.5, cdnBase: "http://127.0.0.1:8081/", timeoutSeconds: 3))
    }

    @Test(arguments: [
        (#"{"pidFile": ""}"#, "server.pidFile: the file name is empty"),
        (#"{"pidFile": 7}"#, "server.pidFile"),
        (#"{"cdnCheck": {}}"#, #"server.cdnCheck.intervalHours: "intervalHours" is missing"#),
        (#"{"cdnCheck": {"intervalHours": "6"}}"#, "server.cdnCheck.intervalHours: the interval must be a number, found a string"),
        (#"{"cdnCheck": {"intervalHours": 0.1}}"#, "server.cdnCheck.intervalHours: 0.1 hours is outside 0.25...168"),
        (
            #"{"cdnCheck": {"intervalHours": 6, "cdnBase": "ftp://cdn.example"}}"#,
            #"server.cdnCheck.cdnBase: "ftp://cdn.example" is not an http:// or https:// URL"#
        ),
        (#"{"cdnCheck": {"intervalHours": 6, "timeoutSeconds": 0}}"#, "server.cdnCheck.timeoutSeconds"),
        (#"{"cdnCheck": {"intervalHour": 6}}"#, #"server.cdnCheck.intervalHour: unknown key "intervalHour""#),
    ])
    func badValuesNameTheirPathAndAFix(server: String, expected: String) {
        let found = problems(in: configText(server: server))
        #expect(found.contains { $0.description.hasPrefix(expected) && !$0.fix.isEmpty }, "\(found)")
    }

    @Test func reloadFindsThePidFileInAConfigWithoutCheckingTheRest() throws {
        let folder = try TemporaryDirectory()
        // Not a usable config (no sites), yet its pid file is found: a reload is for the server to judge.
        let path = try folder.write("config.json", #"{"server": {"pidFile": "linkhost.pid"}}"#)
        #expect(try ConfigurationLoader.pidFile(inConfigAt: path) == folder.path + "/linkhost.pid")
        let none = try folder.write("none.json", #"{"sites": []}"#)
        #expect(try ConfigurationLoader.pidFile(inConfigAt: none) == nil)
        let broken = try folder.write("broken.json", #"{"server": "#)
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.pidFile(inConfigAt: broken) }
    }
}
