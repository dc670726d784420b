import AssetLinks
import Foundation
import OrderedJSON
import Testing

/// The assetlinks.json validator: each code on a minimal file, with its path and fix.
@Suite("assetlinks.json validation")
struct AssetLinksValidatorTests {
    static let fingerprint = CertificateFingerprint.example
    static let statement = """
        {"relation": ["delegate_permission/common.handle_all_urls"],
         "target": {"namespace": "android_app", "package_name": "com.yaman.rowhni", "sha256_cert_fingerprints": ["\(fingerprint)"]}}
        """

    private func findings(_ text: String) -> [AssetLinksFinding] {
        AssetLinksValidator().validate(bytes: Array(text.utf8))
    }

    private func codes(_ text: String) -> [String] {
        findings(text).map(\.code.rawValue)
    }

    @Test func theGeneratedFileHasNoFindingsAndIsTheDocumentedShape() throws {
        let document = AssetLinksGenerator.document(
            packageName: "com.yaman.rowhni", fingerprints: [Self.fingerprint, Self.fingerprint.replacingOccurrences(of: "5A", with: "5B")])
        #expect(AssetLinksValidator().validate(bytes: document.serialized()).isEmpty)
        let statement = try #require(document.arrayElements?.first)
        #expect(statement["relation"] == ["delegate_permission/common.handle_all_urls"])
        #expect(statement["target"]?["namespace"] == "android_app")
        #expect(statement["target"]?["package_name"] == "com.yaman.rowhni")
        #expect(statement["target"]?["sha256_cert_fingerprints"]?.arrayElements?.count == 2)
        #expect(codes("[\(Self.statement)]") == [])
    }

    @Test(arguments: [
        ("", "the file is empty (0 bytes)"),
        ("[{\"relation\": ", "not valid JSON (line 1, column 15)"),
        (String(repeating: "[", count: 100), "nested deeper than 64 levels"),
    ])
    func notJSON(text: String, message: String) throws {
        let found = findings(text)
        #expect(found.map(\.code) == [.notJSON])
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.contains(message) == true, "\(found)")
    }

    @Test func aLoneStatementIsToldToBeWrappedInAnArray() throws {
        let finding = try #require(findings(Self.statement).first)
        #expect(finding.code == .rootNotArray)
        #expect(finding.fix == "wrap the statement in [ ... ]")
    }

    @Test func anEmptyListVerifiesNothing() {
        #expect(codes("[]") == ["AL007"])
        #expect(findings("[]").first?.severity == .warning)
    }

    @Test func byteOrderMarkAndRepeatedKeysAreWarnings() {
        #expect(AssetLinksValidator().validate(bytes: [0xEF, 0xBB, 0xBF] + Array("[\(Self.statement)]".utf8)).map(\.code) == [.byteOrderMark])
        let repeated =
            "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": \(Self.target())}]"
        let found = findings(repeated)
        #expect(found.map(\.code) == [.duplicateKey])
        #expect(found.first?.path == "[0].relation")
    }

    static func target(
        package: String = "\"com.yaman.rowhni\"", fingerprints: String = "[\"\(fingerprint)\"]", namespace: String = "\"android_app\"", extra: String = ""
    ) -> String {
        "{\"namespace\": \(namespace), \"package_name\": \(package), \"sha256_cert_fingerprints\": \(fingerprints)\(extra)}"
    }

    static func file(relation: String = "[\"delegate_permission/common.handle_all_urls\"]", target: String = target()) -> String {
        "[{\"relation\": \(relation), \"target\": \(target)}]"
    }

    @Test(arguments: [
        // Statements
        (file(relation: "[]"), ["AL010", "AL007"], "[0].relation"),
        ("[{\"target\": \(target())}]", ["AL010", "AL007"], "[0].relation"),
        (file(relation: "\"delegate_permission/common.handle_all_urls\""), ["AL006", "AL007"], "[0].relation"),
        (file(relation: "[\"common.handle_all_urls\"]"), ["AL011", "AL007"], "[0].relation[0]"),
        ("[{\"relation\": [\"delegate_permission/common.handle_all_urls\"]}]", ["AL012", "AL007"], "[0]"),
        (file(target: "[]"), ["AL006", "AL007"], "[0].target"),
        (file(target: target(namespace: "\"android\"")), ["AL013", "AL007"], "[0].target.namespace"),
        ("[\(statement), \(statement)]", ["AL014"], "[1]"),
        ("[42]", ["AL006", "AL007"], "[0]"),
        // Android targets
        (file(target: target(package: "\"rowhni\"")), ["AL020", "AL007"], "[0].target.package_name"),
        (file(target: target(package: "\"com.1yaman.rowhni\"")), ["AL020", "AL007"], "[0].target.package_name"),
        (file(target: target(package: "7")), ["AL006", "AL007"], "[0].target.package_name"),
        (file(target: target(fingerprints: "[]")), ["AL021", "AL007"], "[0].target.sha256_cert_fingerprints"),
        (file(target: target(fingerprints: "[\"AA:BB\"]")), ["AL022", "AL007"], "[0].target.sha256_cert_fingerprints[0]"),
        (file(target: target(fingerprints: "[\"\(fingerprint.lowercased())\"]")), ["AL023"], "[0].target.sha256_cert_fingerprints[0]"),
        (file(target: target(fingerprints: "[\"\(fingerprint)\", \"\(fingerprint)\"]")), ["AL024"], "[0].target.sha256_cert_fingerprints[1]"),
        (file(target: target(extra: ", \"sha256_cert_fingerprint\": []")), ["AL005"], "[0].target.sha256_cert_fingerprint"),
        // Web targets
        (file(target: "{\"namespace\": \"web\", \"site\": \"https://rowhni.com/invite\"}"), ["AL030", "AL007"], "[0].target.site"),
    ])
    func eachProblemHasItsCodeAndPath(text: String, expected: [String], path: String) throws {
        let found = findings(text)
        #expect(found.map(\.code.rawValue) == expected)
        #expect(found.first?.path == path)
        #expect(found.allSatisfy { !$0.fix.isEmpty && !$0.message.isEmpty })
    }

    @Test func aMisspelledKeyIsToldItsRightSpelling() throws {
        let camel =
            "[{\"relation\": [\"delegate_permission/common.handle_all_urls\"], \"target\": {\"namespace\": \"android_app\", \"packageName\": \"com.yaman.rowhni\", \"sha256CertFingerprints\": [\"\(Self.fingerprint)\"]}}]"
        let found = findings(camel)
        #expect(found.filter { $0.code == .unknownKey }.map(\.fix) == ["write \"package_name\"", "write \"sha256_cert_fingerprints\""])
        #expect(found.contains { $0.code == .malformedPackageName && $0.path == "[0].target.package_name" })
        let relation = try #require(findings(Self.file(relation: "[\"common.handle_all_urls\"]")).first)
        #expect(relation.fix == "write \"delegate_permission/common.handle_all_urls\"")
    }

    @Test func aWebTargetForSharedSignInIsValid() {
        let text = """
            [\(Self.statement), {"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "https://rowhni.com"}}]
            """
        #expect(codes(text) == [])
    }

    // MARK: fingerprints and package names

    @Test(arguments: [
        (CertificateFingerprint.example, CertificateFingerprint.Verdict.valid),
        (CertificateFingerprint.example.lowercased(), .lowerCase(upperCased: CertificateFingerprint.example)),
    ])
    func validFingerprints(text: String, verdict: CertificateFingerprint.Verdict) {
        #expect(CertificateFingerprint.check(text) == verdict)
    }

    @Test func malformedFingerprintsSayWhatIsWrong() {
        func problem(_ text: String) -> String {
            guard case .invalid(let problem, _) = CertificateFingerprint.check(text) else { return "valid" }
            return problem
        }
        let sha1 = (0..<20).map { _ in "AB" }.joined(separator: ":")
        #expect(problem(sha1).contains("SHA-1"))
        #expect(problem((0..<16).map { _ in "AB" }.joined(separator: ":")).contains("MD5"))
        #expect(problem((0..<31).map { _ in "AB" }.joined(separator: ":")).contains("31 bytes"))
        #expect(problem(CertificateFingerprint.example.replacingOccurrences(of: ":", with: "")).contains("no colons"))
        if case .invalid(_, let fix) = CertificateFingerprint.check(CertificateFingerprint.example.replacingOccurrences(of: ":", with: "").lowercased()) {
            #expect(fix == "write \"\(CertificateFingerprint.example)\"")
        } else {
            Issue.record("64 hex digits without colons were accepted")
        }
        #expect(problem(CertificateFingerprint.example.replacingOccurrences(of: ":", with: "-")).contains("colons"))
        #expect(problem(" " + CertificateFingerprint.example) != "valid")
        #expect(problem("") != "valid")
    }

    @Test func packageNames() {
        for valid in ["com.yaman.rowhni", "com.awfulapp.Awful", "a.b", "org.example.app_2"] {
            #expect(AndroidPackageName.problem(with: valid) == nil, "\(valid)")
        }
        for invalid in ["", "rowhni", "com..app", "com.1app", "com.example.app-2", "com.example.app.", "_com.example"] {
            #expect(AndroidPackageName.problem(with: invalid) != nil, "\(invalid)")
        }
    }
}
