import AssetLinks
import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// `app.android`: every mistake is a config error that names its JSON path and shows the fix.
@Suite("Android app configuration")
struct AndroidConfigurationTests {
    static func site(android: String) -> String {
        exampleSite.replacingOccurrences(of: "\"scheme\": \"example\"}", with: "\"scheme\": \"example\", \"android\": \(android)}")
    }

    static let fingerprint = CertificateFingerprint.example

    @Test func aValidBlockIsReadAndMakesTheSitesAssetLinksFile() throws {
        let text = configText(sites: [Self.site(android: "{\"package\": \"com.example.app\", \"sha256CertFingerprints\": [\"\(Self.fingerprint)\"]}")])
        let configuration = try ConfigurationLoader.parse(Array(text.utf8), baseDirectory: ProjectPaths.root)
        let site = try #require(configuration.sites.first)
        #expect(site.app.android == AndroidAppConfiguration(packageName: "com.example.app", fingerprints: [Self.fingerprint]))
        #expect(site.app.android?.storeURL == "https://play.google.com/store/apps/details?id=com.example.app")
        let file = try #require(site.assetLinks)
        #expect(file.document == AssetLinksGenerator.document(packageName: "com.example.app", fingerprints: [Self.fingerprint]))
        #expect(file.bytes == file.document.serialized(.pretty(indent: 4)))
        #expect(AssetLinksValidator().validate(bytes: file.bytes).isEmpty)
    }

    @Test func theShippedConfigHasNoAndroidAppBecauseNoSeedNamesOne() throws {
        let configuration = try ConfigurationLoader.load(path: ProjectPaths.shippedConfig)
        #expect(configuration.sites.allSatisfy { $0.app.android == nil && $0.assetLinks == nil })
    }

    @Test(arguments: [
        // A SHA-1 fingerprint: the most common mistake (keytool prints both).
        (
            "[\"\((0..<20).map { _ in "AB" }.joined(separator: ":"))\"]", "sites[0].app.android.sha256CertFingerprints[0]", "SHA-1",
            "keytool -list -v"
        ),
        ("[\"\(fingerprint.lowercased())\"]", "sites[0].app.android.sha256CertFingerprints[0]", "lower case", "write \"\(fingerprint)\""),
        (
            "[\"\(fingerprint.replacingOccurrences(of: ":", with: ""))\"]", "sites[0].app.android.sha256CertFingerprints[0]", "no colons",
            "write \"\(fingerprint)\""
        ),
        ("[\"AA:BB:CC\"]", "sites[0].app.android.sha256CertFingerprints[0]", "3 bytes", "SHA256:"),
        ("[\"not a fingerprint\"]", "sites[0].app.android.sha256CertFingerprints[0]", "32 bytes as upper-case hex pairs", "SHA-256"),
        ("[]", "sites[0].app.android.sha256CertFingerprints", "is empty", "AB:CD:…:EF"),
        ("\"\(fingerprint)\"", "sites[0].app.android.sha256CertFingerprints", "must be an array of strings", "AB:CD:…:EF"),
        ("[\"\(fingerprint)\", \"\(fingerprint)\"]", "sites[0].app.android.sha256CertFingerprints[1]", "listed twice", "remove the repeat"),
    ])
    func aBadFingerprintIsAConfigErrorWithItsPathAndTheExpectedForm(fingerprints: String, path: String, problem: String, fix: String) throws {
        let found = problems(in: configText(sites: [Self.site(android: "{\"package\": \"com.example.app\", \"sha256CertFingerprints\": \(fingerprints)}")]))
        let first = try #require(found.first)
        #expect(found.count == 1, "\(found)")
        #expect(first.path.description == path)
        #expect(first.problem.contains(problem), "\(first.problem)")
        #expect(first.fix.contains(fix) || first.problem.contains(fix), "\(first)")
        if problem != "listed twice" {
            #expect(first.description.contains(CertificateFingerprint.expectedForm) || first.fix.contains("write \""), "the expected form is shown: \(first)")
        }
    }

    @Test(arguments: [
        ("{\"sha256CertFingerprints\": [\"\(fingerprint)\"]}", "sites[0].app.android.package", "\"package\" is missing"),
        ("{\"package\": \"rowhni\", \"sha256CertFingerprints\": [\"\(fingerprint)\"]}", "sites[0].app.android.package", "one segment"),
        ("{\"package\": \"com.example.app\"}", "sites[0].app.android.sha256CertFingerprints", "\"sha256CertFingerprints\" is missing"),
        (
            "{\"package\": \"com.example.app\", \"sha256CertFingerprints\": [\"\(fingerprint)\"], \"playURL\": \"http://play.example\"}",
            "sites[0].app.android.playURL", "not an https URL"
        ),
        (
            "{\"package\": \"com.example.app\", \"sha256CertFingerprint\": [\"\(fingerprint)\"]}", "sites[0].app.android.sha256CertFingerprint",
            "unknown key"
        ),
        ("[\"com.example.app\"]", "sites[0].app.android", "must be a JSON object"),
    ])
    func otherMistakesNameTheirPath(android: String, path: String, problem: String) throws {
        let found = problems(in: configText(sites: [Self.site(android: android)]))
        #expect(found.contains { $0.path.description == path && $0.problem.contains(problem) }, "\(found)")
    }

    @Test func aTypoInAKeyIsToldTheRightOne() throws {
        let found = problems(
            in: configText(sites: [Self.site(android: "{\"package\": \"com.example.app\", \"sha256CertFingerprint\": [\"\(Self.fingerprint)\"]}")]))
        #expect(found.contains { $0.fix.contains("did you mean \"sha256CertFingerprints\"?") }, "\(found)")
    }
}
