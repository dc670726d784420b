import AssetLinks
import OrderedJSON

/// Reads `app.android`: the Android app whose assetlinks.json the site serves and whose store page
/// Android visitors are offered.
struct AndroidSectionParser {
    static let allowedKeys = ["package", "sha256CertFingerprints", "playURL"]

    let problems: ConfigurationProblems

    /// The Android app, `nil` when the block is absent or has a problem (each is recorded).
    func read(_ app: ConfigObjectReader) -> AndroidAppConfiguration? {
        guard let reader = app.object("android", what: "the Android app", allowedKeys: Self.allowedKeys) else { return nil }
        let before = problems.items.count
        let package = reader.string("package", required: true, fix: "add the app's applicationId from its build.gradle, e.g. \"package\": \"com.example.app\"")
        if let package, let (problem, fix) = AndroidPackageName.problem(with: package) {
            problems.add(reader.path.appending("package"), problem, fix: fix)
        }
        let fingerprints = readFingerprints(reader)
        let playURL = reader.string("playURL", fix: "write the https URL of the app's Google Play page")
        if let playURL, !playURL.hasPrefix("https://") || playURL.count <= "https://".count {
            problems.add(
                reader.path.appending("playURL"), "\"\(playURL)\" is not an https URL",
                fix: "write the full https URL of the app's store page, or leave \"playURL\" out for https://play.google.com/store/apps/details?id=<package>")
        }
        guard problems.items.count == before, let package else { return nil }
        return AndroidAppConfiguration(packageName: package, fingerprints: fingerprints, playURL: playURL)
    }

    /// The fingerprints exactly as written, once each; every malformed one is a problem that shows
    /// the expected form (the served file must be right, so nothing is corrected silently).
    private func readFingerprints(_ reader: ConfigObjectReader) -> [String] {
        let fix =
            "list the SHA-256 fingerprints of the app's signing certificates as \(CertificateFingerprint.expectedForm), e.g. [\"\(CertificateFingerprint.example)\"]"
        let entries = reader.strings("sha256CertFingerprints", required: true, nonEmpty: true, fix: fix) ?? []
        var fingerprints: [String] = []
        for entry in entries {
            switch CertificateFingerprint.check(entry.text) {
            case .valid:
                if fingerprints.contains(entry.text) {
                    problems.add(entry.path, "\"\(entry.text)\" is listed twice", fix: "remove the repeat")
                } else {
                    fingerprints.append(entry.text)
                }
            case .lowerCase(let upper):
                problems.add(
                    entry.path, "\"\(entry.text)\" is in lower case; the expected form is \(CertificateFingerprint.expectedForm)", fix: "write \"\(upper)\"")
            case .invalid(let problem, let howToFix):
                problems.add(entry.path, "\(problem); the expected form is \(CertificateFingerprint.expectedForm)", fix: howToFix)
            }
        }
        return fingerprints
    }
}
