import AssetLinks
import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// The built `linkhost` binary: `link --qr`, `assetlinks`, `check --assetlinks`, and the issue's
/// curl check of a served assetlinks.json.
@Suite("linkhost link --qr, assetlinks and check --assetlinks", .ownThread, .serialized)
struct AndroidCommandLineTests {
    static func linkhost(_ arguments: [String], in folder: TemporaryDirectory? = nil, environment: [String: String]? = nil) throws -> (
        status: Int32, output: String, error: String
    ) {
        try ChildProcess.run(ProjectPaths.linkhostBinary, arguments, currentDirectory: folder?.path, environment: environment)
    }

    // MARK: link --qr

    /// The issue's check, as written: `linkhost link addfriend code=ABC123 --qr png --output q.png
    /// && zbarimg -q q.png` prints the link.
    @Test(.enabled(if: !QRScanner.mayBeSkipped, "zbarimg is not installed (apt-get install zbar-tools)"))
    func aPNGCodeScansAsThePrintedLink() throws {
        let folder = try TemporaryDirectory("linkhost-qr-cli")
        let made = try Self.linkhost(
            ["link", "addfriend", "code=ABC123", "--config", ProjectPaths.shippedConfig, "--qr", "png", "--output", "q.png"], in: folder)
        #expect(made.status == 0, "\(made.error)")
        #expect(made.output == "https://rowhni.com/addfriend?code=ABC123&from=qrcode\nrowhni://addfriend?code=ABC123\n")
        let scanned = try ChildProcess.run("zbarimg", ["-q", "q.png"], currentDirectory: folder.path)
        #expect(scanned.status == 0)
        #expect(scanned.output == "QR-Code:https://rowhni.com/addfriend?code=ABC123&from=qrcode\n")
    }

    @Test(
        .enabled(if: !QRScanner.mayBeSkipped, "zbarimg is not installed (apt-get install zbar-tools)"),
        arguments: [
            (
                ["addfriend", "code=ABC123", "--utm-source", "newsletter", "--utm-medium", "e-mail", "--utm-campaign", "Frühlingsfest"],
                ProjectPaths.shippedConfig,
                "https://rowhni.com/addfriend?code=ABC123&from=qrcode&utm_source=newsletter&utm_medium=e-mail&utm_campaign=Fr%C3%BChlingsfest"
            ),
            (
                ["familyMember", "name=Jürgen"], ProjectPaths.root + "/Tests/Fixtures/textbook.json",
                "https://www.familymoviesapp.com/familymember/J%C3%BCrgen?from=qrcode"
            ),
            (
                ["threadPage", "threadid=456", "pagenumber=2", "--host", "archives.somethingawful.com"], ProjectPaths.shippedConfig,
                "https://archives.somethingawful.com/showthread.php?threadid=456&pagenumber=2&from=qrcode"
            ),
        ])
    func linksWithCampaignsAndNonASCIIValuesScanAsPrinted(arguments: [String], config: String, expected: String) throws {
        let folder = try TemporaryDirectory("linkhost-qr-cli")
        let made = try Self.linkhost(["link"] + arguments + ["--config", config, "--qr", "png", "--output", folder.path + "/q.png"])
        #expect(made.status == 0, "\(made.error)")
        #expect(made.output.hasPrefix(expected + "\n"))
        #expect(try QRScanner.decode(imageAt: folder.path + "/q.png") == [expected])
    }

    @Test(.enabled(if: !QRScanner.mayBeSkipped, "zbarimg is not installed (apt-get install zbar-tools)"))
    func svgAndTerminalCodesDrawTheLink() throws {
        let expected = "https://rowhni.com/joingroup?code=TEST123&from=qrcode"
        let svg = try Self.linkhost(["link", "joingroup", "code=TEST123", "--config", ProjectPaths.shippedConfig, "--qr", "svg"])
        #expect(svg.status == 0)
        #expect(svg.output.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.output.hasSuffix("</svg>\n"))
        #expect(svg.error == "linkhost: QR code of \(expected)\n", "the link is told on standard error, so the SVG can be redirected alone")
        let viewBox = try #require(svg.output.range(of: "viewBox=\"0 0 ")).upperBound
        let side = try #require(Int(svg.output[viewBox...].prefix { $0.isNumber }))
        #expect(try QRScanner.decode(modules: try QRDrawingReader.modules(ofSVG: svg.output, side: side), side: side) == [expected])

        for colours in [true, false] {
            var environment = ProcessInfo.processInfo.environment
            environment["NO_COLOR"] = colours ? nil : "1"
            let terminal = try Self.linkhost(
                ["link", "joingroup", "code=TEST123", "--config", ProjectPaths.shippedConfig, "--qr", "terminal"], environment: environment)
            #expect(terminal.status == 0)
            #expect(terminal.output.contains("\u{1B}[") == colours)
            let lines = terminal.output.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.suffix(3) == [Substring(expected), "rowhni://joingroup?code=TEST123", ""])
            let drawing = try QRDrawingReader.modules(ofTerminalDrawing: lines.dropLast(3).joined(separator: "\n"))
            #expect(try QRScanner.decode(modules: drawing.modules, side: drawing.side) == [expected])
        }
    }

    @Test func aLogThatDoesNotTrackFromGetsNoMarker() throws {
        let folder = try TemporaryDirectory("linkhost-qr-cli")
        let config = try AndroidFixture.configFile(in: folder, settings: ["log.trackedParameters": .array([])])
        let made = try Self.linkhost(["link", "addfriend", "code=ABC123", "--config", config, "--qr", "svg", "--output", folder.path + "/q.svg"])
        #expect(made.status == 0, "\(made.error)")
        #expect(made.output == "https://rowhni.com/addfriend?code=ABC123\nrowhni://addfriend?code=ABC123\n")
        #expect(try String(contentsOfFile: folder.path + "/q.svg", encoding: .utf8).hasPrefix("<svg"))
        // Without --qr, the link is as it always was.
        let plain = try Self.linkhost(["link", "addfriend", "code=ABC123", "--config", ProjectPaths.shippedConfig])
        #expect(plain.output == "https://rowhni.com/addfriend?code=ABC123\nrowhni://addfriend?code=ABC123\n")
    }

    @Test(arguments: [
        (["--qr", "jpeg"], 64, ["--qr", "svg", "png", "terminal"]),
        (["--output", "q.png"], 64, ["--output needs --qr"]),
        (
            ["--qr", "png", "--output", "/nonexistent-folder-of-linkhost/q.png"], 2,
            ["--output /nonexistent-folder-of-linkhost/q.png: the folder does not exist"]
        ),
    ])
    func badQRFlagsNameTheFlagAndWhatIsAllowed(flags: [String], status: Int, phrases: [String]) throws {
        let result = try Self.linkhost(["link", "addfriend", "code=ABC123", "--config", ProjectPaths.shippedConfig] + flags)
        #expect(Int(result.status) == status)
        for phrase in phrases { #expect(result.error.contains(phrase), "\(result.error)") }
        #expect(!result.error.contains("Fatal error") && !result.error.contains("Stack"))
    }

    // MARK: assetlinks and check

    @Test func assetlinksPrintsTheServedBytesOrSaysWhyThereAreNone() throws {
        let folder = try TemporaryDirectory("linkhost-assetlinks-cli")
        let config = try AndroidFixture.configFile(in: folder)
        let printed = try Self.linkhost(["assetlinks", "--host", "rowhni.com", "--config", config])
        #expect(printed.status == 0, "\(printed.error)")
        let expected = try ConfigurationLoader.load(path: config).site(id: "rowhni")?.assetLinks?.bytes
        #expect(Array(printed.output.utf8) == expected)
        let none = try Self.linkhost(["assetlinks", "--host", "rowhni.com", "--config", ProjectPaths.shippedConfig])
        #expect(none.status == 2)
        #expect(none.error.contains("site rowhni has no Android app, so /.well-known/assetlinks.json answers 404"))
    }

    @Test func checkValidatesALocalAssetLinksFileWithCodesPathsAndFixes() throws {
        let folder = try TemporaryDirectory("linkhost-assetlinks-cli")
        let sha1 = (0..<20).map { _ in "AB" }.joined(separator: ":")
        let file = try folder.write(
            "assetlinks.json",
            """
            [{"relation": ["delegate_permission/common.handle_all_urls"],
              "target": {"namespace": "android_app", "package_name": "com.yaman.rowhni",
                         "sha256_cert_fingerprints": ["\(sha1)", "\(CertificateFingerprint.example.lowercased())"]}}]
            """)
        let text = try Self.linkhost(["check", "--assetlinks", file])
        #expect(text.status == 1)
        let lines = text.output.split(separator: "\n")
        #expect(lines.count == 3, "\(text.output)")
        #expect(lines[0].hasPrefix("error AL022 [0].target.sha256_cert_fingerprints[0]: \"\(sha1)\" has 20 bytes: that is a SHA-1 fingerprint"))
        #expect(
            lines[1]
                == "warning AL023 [0].target.sha256_cert_fingerprints[1]: \"\(CertificateFingerprint.example.lowercased())\" is in lower case; fingerprints are written in upper-case hex (fix: write \"\(CertificateFingerprint.example)\")"
        )
        #expect(lines[2] == "1 error, 1 warning")
        let json = try Self.linkhost(["check", "--assetlinks", file, "--json"])
        let findings = try #require(try JSONParser().parse(json.output).arrayElements)
        #expect(findings.map { $0["code"] } == ["AL022", "AL023"])
        #expect(findings.map { $0["severity"] } == ["error", "warning"])

        let good = try folder.write(
            "good.json", try Self.linkhost(["assetlinks", "--host", "rowhni.com", "--config", try AndroidFixture.configFile(in: folder)]).output)
        let clean = try Self.linkhost(["check", "--assetlinks", good])
        #expect(clean.status == 0)
        #expect(clean.output == "0 errors, 0 warnings\n")
        let missing = try Self.linkhost(["check", "--assetlinks", folder.path + "/nope.json"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("--assetlinks \(folder.path)/nope.json: no such file"))
        let both = try Self.linkhost(["check", "--aasa", good, "--assetlinks", good])
        #expect(both.status == 64)
        #expect(both.error.contains("give one of --config PATH, --aasa FILE or --assetlinks FILE, not --aasa and --assetlinks"))
    }

    @Test func checkOfAConfigCoversTheAssetLinksFileItServes() throws {
        let folder = try TemporaryDirectory("linkhost-assetlinks-cli")
        let withAndroid = try Self.linkhost(["check", "--config", try AndroidFixture.configFile(in: folder), "--json"])
        let shipped = try Self.linkhost(["check", "--config", ProjectPaths.shippedConfig, "--json"])
        // The generated file is clean, so the findings are the shipped config's own (TEAMID warnings).
        #expect(withAndroid.status == shipped.status)
        #expect(try JSONParser().parse(withAndroid.output) == JSONParser().parse(shipped.output))
    }

    /// The issue's check: with an Android block configured, `curl -s -H 'Host: rowhni.com'
    /// …/.well-known/assetlinks.json` answers the generated file as `application/json`.
    @Test func curlGetsTheGeneratedFileFromARunningServer() throws {
        let folder = try TemporaryDirectory("linkhost-assetlinks-cli")
        let config = try AndroidFixture.configFile(in: folder)
        let child = try ChildProcess(ProjectPaths.linkhostBinary, ["serve", "--config", config, "--host", "127.0.0.1", "--port", "0"])
        guard child.waitForOutput(containing: "listening on http://") else {
            Issue.record("serve did not start: \(child.standardError)")
            return
        }
        let line = child.standardOutput.split(separator: "\n").first { $0.contains("listening on http://") } ?? ""
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        #expect(child.standardOutput.contains("curl -sI -H 'Host: rowhni.com' http://127.0.0.1:\(port)/.well-known/assetlinks.json"))
        let url = "http://127.0.0.1:\(port)/.well-known/assetlinks.json"
        let body = try ChildProcess.run("curl", ["-s", "-H", "Host: rowhni.com", url])
        let head = try ChildProcess.run("curl", ["-sI", "-H", "Host: rowhni.com", url])
        let printed = try Self.linkhost(["assetlinks", "--host", "rowhni.com", "--config", config])
        #expect(body.output == printed.output)
        #expect(head.output.hasPrefix("HTTP/1.1 200"))
        #expect(head.output.lowercased().contains("content-type: application/json\r\n"))
        child.send(signal: SIGTERM)
        #expect(child.waitForExit(timeoutSeconds: 30) == 0)
        let stats = try Self.linkhost(["stats", "--by", "kind", "--db", folder.path + "/log.sqlite", "--format", "csv"])
        #expect(stats.output.contains("assetlinks,2"), "\(stats.output)")
    }
}
