import Foundation
import OrderedJSON
import TestSupport
import Testing

/// `check` and `match` answer as a device does on the files of `Tests/Fixtures/device-refusals`: an
/// `appID` entry keeps its paths for iOS 12, a malformed app ID and a file iOS refuses open nothing
/// (and say why), and a PEM-armoured signed file is read. Through the built binary.
@Suite("AASA files as a device reads them", .ownThread)
struct DeviceRefusalTests {
    static let folder = ProjectPaths.root + "/Tests/Fixtures/device-refusals/"

    static func match(_ url: String, _ file: String) throws -> (status: Int32, answer: JSONValue, error: String) {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["match", url, "--aasa", file, "--json"])
        return (result.status, (try? JSONParser().parse(result.output)) ?? .null, result.error)
    }

    static func checkCodes(_ file: String) throws -> [String] {
        let result = try ChildProcess.run(ProjectPaths.linkhostBinary, ["check", "--aasa", file, "--json"])
        return (try JSONParser().parse(result.output)).arrayElements?.compactMap { $0["code"]?.stringValue } ?? []
    }

    @Test func anAppIDEntryKeepsItsPathsForIOS12() throws {
        let file = Self.folder + "appid-paths-and-components.json"
        #expect(try !Self.checkCodes(file).contains("AASA015"))
        #expect(try Self.match("https://example.com/items/7", file).answer["decision"] == "match")
    }

    @Test(arguments: ["malformed-appid-no-team.json", "malformed-appid-placeholder.json"])
    func aMalformedAppIDOpensNothingAndSaysWhy(file: String) throws {
        #expect(try Self.checkCodes(Self.folder + file).contains("AASA010"))
        let (status, answer, error) = try Self.match("https://example.com/anything", Self.folder + file)
        #expect(status == 0, "\(error)")
        #expect(answer["decision"] == "none")
        let explanation = answer["explain"]?.stringValue ?? ""
        #expect(explanation.contains("matches, but iOS opens nothing through it") && explanation.contains("AASA010"), "\(explanation)")
    }

    @Test func aFileOver128KBOrNotJSONOpensNothingAndSaysWhy() throws {
        let scratch = try TemporaryDirectory()
        // One entry whose components fill the file past 131,072 bytes.
        let components = (0..<9_000).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ", ")
        let large = scratch.path + "/large.json"
        try Data(#"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*"}, \#(components)]}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: large))
        #expect(try Self.checkCodes(large).contains("AASA003"))
        let (status, answer, _) = try Self.match("https://example.com/p1/x", large)
        #expect(status == 0 && answer["decision"] == "none")
        #expect(answer["explain"]?.stringValue?.contains("iOS reads AASA files of at most 131072 bytes") == true, "\(answer)")
        let broken = scratch.path + "/broken.json"
        try Data("{\"applinks\": ".utf8).write(to: URL(fileURLWithPath: broken))
        let syntax = try Self.match("https://example.com/x", broken)
        #expect(syntax.status == 0 && syntax.answer["decision"] == "none")
        #expect(syntax.answer["explain"]?.stringValue?.hasPrefix("iOS refuses the file: ") == true, "\(syntax.answer)")
        // Not JSON at all (a source file given by mistake) is answered alike, naming why.
        let source = try Self.match("https://example.com/x", ProjectPaths.root + "/Package.swift")
        #expect(source.status == 0 && source.answer["explain"]?.stringValue?.contains("not valid JSON") == true, "\(source.answer)")
        // A URL that cannot be used is still the caller's error: exit 2.
        #expect(try Self.match("ftp://", broken).status == 2)
    }

    @Test func aPEMArmouredSignedFileIsRead() throws {
        let file = Self.folder + "signed-pem.p7"
        let (status, answer, error) = try Self.match("https://example.com/signed/1", file)
        #expect(status == 0 && answer["decision"] == "match", "\(error) \(answer)")
        #expect(try Self.checkCodes(file).contains("AASA040"))
    }
}
