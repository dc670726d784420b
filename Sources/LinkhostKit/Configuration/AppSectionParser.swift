import AASAKit
import OrderedJSON

/// Reads a site's `app` object: the iOS app its links open, and the Android app when there is one.
struct AppSectionParser {
    static let allowedKeys = ["name", "appIDs", "appStoreID", "appStoreURL", "scheme", "android"]

    let problems: ConfigurationProblems

    /// The app, or `nil` when it has no usable name or scheme. An unusable scheme is left out
    /// rather than passed on, so the link rules are not all reported for not starting with it.
    func read(_ site: ConfigObjectReader) -> AppConfiguration? {
        guard let reader = site.object("app", what: "the app", allowedKeys: Self.allowedKeys, required: true) else { return nil }
        let name = reader.string("name", required: true, fix: "add the app's display name, e.g. \"name\": \"Rowhni\"")
        if let name, name.trimmingCharacters(in: " ").isEmpty {
            problems.add(reader.path.appending("name"), "the app name is empty", fix: "write the name people know the app by")
        }
        let appIDs = readAppIDs(reader)
        let storeID = reader.string("appStoreID", fix: "write the numeric App Store id as a string, e.g. \"567936609\"")
        if let storeID, storeID.isEmpty || storeID.count > 12 || !storeID.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            problems.add(
                reader.path.appending("appStoreID"), "\"\(storeID)\" is not a numeric App Store id",
                fix: "use the digits after \"id\" in the app's App Store URL, e.g. \"567936609\"")
        }
        let storeURL = reader.string("appStoreURL", fix: "write an https URL, e.g. the app's TestFlight invitation")
        if let storeURL, !storeURL.hasPrefix("https://") {
            problems.add(reader.path.appending("appStoreURL"), "\"\(storeURL)\" is not an https URL", fix: "write the full https URL of the app's store page")
        }
        let scheme = readScheme(reader)
        let android = AndroidSectionParser(problems: problems).read(reader)
        guard let name, let scheme else { return nil }
        return AppConfiguration(name: name, appIDs: appIDs, appStoreID: storeID, appStoreURL: storeURL, scheme: scheme, android: android)
    }

    private func readAppIDs(_ reader: ConfigObjectReader) -> [String] {
        var appIDs: [String] = []
        let entries =
            reader.strings(
                "appIDs", required: true, nonEmpty: true, fix: "list the app's IDs as \"<Team ID>.<bundle ID>\", e.g. [\"ABCDE12345.com.example.app\"]") ?? []
        for entry in entries {
            // A team prefix that is not ten characters (the seeds' TEAMID) is only a warning, for `check`.
            if case .malformed(let problem) = AppIDFormat.check(entry.text) {
                problems.add(
                    entry.path, problem,
                    fix: "write \"<Team ID>.<bundle ID>\", e.g. \"ABCDE12345.com.example.app\" (the Team ID is on developer.apple.com › Membership)")
            } else {
                appIDs.append(entry.text)
            }
        }
        return appIDs
    }

    /// The custom URL scheme, when it is one (lower-case letter first, then letters, digits, `+-.`).
    private func readScheme(_ reader: ConfigObjectReader) -> String? {
        guard let scheme = reader.string("scheme", required: true, fix: "add the app's custom URL scheme without \"://\", e.g. \"rowhni\"") else { return nil }
        let path = reader.path.appending("scheme")
        if ["http", "https"].contains(scheme.lowercased()) {
            problems.add(
                path, "\"\(scheme)\" is the web's scheme, not the app's",
                fix: "write the app's own scheme from its Info.plist CFBundleURLSchemes, e.g. \"awful\"")
            return nil
        }
        guard !Self.isScheme(scheme) else { return scheme }
        // The likely intended scheme: what comes before "://" (or ":"), in lower case.
        let intended = String(scheme.prefix { $0 != ":" }).lowercased().trimmingCharacters(in: " ")
        let fix: String
        if !Self.isScheme(intended) {
            fix = "write the scheme alone in lower case: a letter, then letters, digits, '+', '-' or '.', e.g. \"rowhni\""
        } else if scheme.contains(":") {
            fix = "write \"\(intended)\", the scheme alone without \"://\""
        } else {
            fix = "write \"\(intended)\", in lower case"
        }
        problems.add(path, "\"\(scheme)\" is not a URL scheme", fix: fix)
        return nil
    }

    private static func isScheme(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z") else { return false }
        return bytes.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+")
                || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }
}
