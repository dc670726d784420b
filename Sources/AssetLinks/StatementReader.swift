import OrderedJSON

/// Reads the statements of an assetlinks.json file one by one, collecting findings, and notes
/// whether any usable statement lets an Android app open the site's links.
struct StatementReader {
    private(set) var findings: [AssetLinksFinding] = []
    private(set) var grantsAppLinks = false

    mutating func add(_ code: AssetLinksValidationCode, at path: JSONPath, _ message: String, fix: String) {
        findings.append(AssetLinksFinding(code, at: path, message, fix: fix))
    }

    mutating func read(_ statement: JSONValue, at path: JSONPath) {
        guard case .object(let members) = statement else {
            add(
                .wrongType, at: path, "a statement must be an object, found \(statement.kindDescription)",
                fix: "write { \"relation\": [...], \"target\": {...} }")
            return
        }
        reportUnknownKeys(members, known: AssetLinksValidator.statementKeys, at: path, what: "a statement")
        let relations = readRelations(statement["relation"], at: path.appending("relation"))
        guard let target = statement["target"] else {
            add(
                .missingTarget, at: path, "the statement has no \"target\"",
                fix: "add \"target\": { \"namespace\": \"android_app\", \"package_name\": ..., \"sha256_cert_fingerprints\": [...] }")
            return
        }
        let targetIsUsable = readTarget(target, at: path.appending("target"))
        if targetIsUsable == .androidApp, relations?.contains(AssetLinksRelation.handleAllURLs) == true { grantsAppLinks = true }
    }

    /// The relation strings, or `nil` when the key is missing or unusable (a finding says why).
    private mutating func readRelations(_ value: JSONValue?, at path: JSONPath) -> [String]? {
        let fix = "write \"relation\": [\"\(AssetLinksRelation.handleAllURLs)\"]"
        guard let value else {
            add(.missingRelation, at: path, "the statement has no \"relation\", so it grants nothing", fix: fix)
            return nil
        }
        guard case .array(let elements) = value else {
            add(.wrongType, at: path, "\"relation\" must be an array of strings, found \(value.kindDescription)", fix: fix)
            return nil
        }
        guard !elements.isEmpty else {
            add(.missingRelation, at: path, "\"relation\" is empty, so the statement grants nothing", fix: fix)
            return nil
        }
        var relations: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let relation) = element else {
                add(.wrongType, at: path.appending(index), "a relation must be a string, found \(element.kindDescription)", fix: fix)
                continue
            }
            relations.append(relation)
            guard !AssetLinksRelation.known.contains(relation) else { continue }
            let suggestion = AssetLinksRelation.known.first { KeySpelling.fold($0).hasSuffix(KeySpelling.fold(relation)) }
            add(
                .unknownRelation, at: path.appending(index), "\"\(relation)\" is not a relation Android or Google act on",
                fix: suggestion.map { "write \"\($0)\"" } ?? "use one of \(AssetLinksRelation.known.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return relations
    }

    enum TargetKind { case androidApp, web, unusable }

    private mutating func readTarget(_ value: JSONValue, at path: JSONPath) -> TargetKind {
        guard case .object(let members) = value else {
            add(
                .wrongType, at: path, "\"target\" must be an object, found \(value.kindDescription)",
                fix: "write \"target\": { \"namespace\": \"android_app\", ... }")
            return .unusable
        }
        guard let namespaceValue = value["namespace"] else {
            add(
                .unknownNamespace, at: path.appending("namespace"), "the target has no \"namespace\"",
                fix: "add \"namespace\": \"android_app\" (or \"web\" for a site)")
            return .unusable
        }
        guard case .string(let namespace) = namespaceValue else {
            add(
                .wrongType, at: path.appending("namespace"), "\"namespace\" must be a string, found \(namespaceValue.kindDescription)",
                fix: "write \"namespace\": \"android_app\"")
            return .unusable
        }
        switch namespace {
        case "android_app":
            reportUnknownKeys(members, known: AssetLinksValidator.androidTargetKeys, at: path, what: "an android_app target")
            let package = readPackageName(value["package_name"], at: path.appending("package_name"))
            let fingerprints = readFingerprints(value["sha256_cert_fingerprints"], at: path.appending("sha256_cert_fingerprints"))
            return package && fingerprints ? .androidApp : .unusable
        case "web":
            reportUnknownKeys(members, known: AssetLinksValidator.webTargetKeys, at: path, what: "a web target")
            return readSite(value["site"], at: path.appending("site")) ? .web : .unusable
        default:
            let suggestion = ["android_app", "web"].first { KeySpelling.fold($0) == KeySpelling.fold(namespace) } ?? "android_app"
            add(
                .unknownNamespace, at: path.appending("namespace"), "\"\(namespace)\" is not a namespace; targets are \"android_app\" or \"web\"",
                fix: "write \"\(suggestion)\"")
            return .unusable
        }
    }

    private mutating func readPackageName(_ value: JSONValue?, at path: JSONPath) -> Bool {
        guard let value else {
            add(
                .malformedPackageName, at: path, "the Android target has no \"package_name\"",
                fix: "add \"package_name\": \"com.example.app\", the app's applicationId")
            return false
        }
        guard case .string(let name) = value else {
            add(.wrongType, at: path, "\"package_name\" must be a string, found \(value.kindDescription)", fix: "write \"package_name\": \"com.example.app\"")
            return false
        }
        if let (problem, fix) = AndroidPackageName.problem(with: name) {
            add(.malformedPackageName, at: path, problem, fix: fix)
            return false
        }
        return true
    }

    /// Whether at least one fingerprint is usable.
    private mutating func readFingerprints(_ value: JSONValue?, at path: JSONPath) -> Bool {
        let fix = "list the SHA-256 fingerprints of the app's signing certificates, e.g. [\"\(CertificateFingerprint.example)\"]"
        guard let value else {
            add(.missingFingerprints, at: path, "the Android target has no \"sha256_cert_fingerprints\", so no build of the app matches", fix: fix)
            return false
        }
        guard case .array(let elements) = value else {
            add(.wrongType, at: path, "\"sha256_cert_fingerprints\" must be an array of strings, found \(value.kindDescription)", fix: fix)
            return false
        }
        guard !elements.isEmpty else {
            add(.missingFingerprints, at: path, "\"sha256_cert_fingerprints\" is empty, so no build of the app matches", fix: fix)
            return false
        }
        var usable = false
        var seen = Set<String>()
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                add(.wrongType, at: path.appending(index), "a fingerprint must be a string, found \(element.kindDescription)", fix: fix)
                continue
            }
            switch CertificateFingerprint.check(text) {
            case .valid:
                usable = true
            case .lowerCase(let upper):
                usable = true
                add(
                    .lowerCaseFingerprint, at: path.appending(index), "\"\(text)\" is in lower case; fingerprints are written in upper-case hex",
                    fix: "write \"\(upper)\"")
            case .invalid(let problem, let fix):
                add(.malformedFingerprint, at: path.appending(index), problem, fix: fix)
            }
            if !seen.insert(text.uppercased()).inserted {
                add(.repeatedFingerprint, at: path.appending(index), "\"\(text)\" is listed twice", fix: "remove the repeat")
            }
        }
        return usable
    }

    private mutating func readSite(_ value: JSONValue?, at path: JSONPath) -> Bool {
        let fix = "write the scheme and host alone, e.g. \"site\": \"https://example.com\""
        guard let value else {
            add(.malformedSite, at: path, "the web target has no \"site\"", fix: fix)
            return false
        }
        guard case .string(let site) = value else {
            add(.wrongType, at: path, "\"site\" must be a string, found \(value.kindDescription)", fix: fix)
            return false
        }
        let scheme = ["https://", "http://"].first { site.hasPrefix($0) }
        let rest = scheme.map { site.dropFirst($0.count) } ?? ""
        guard scheme != nil, !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"), !rest.contains("@") else {
            add(.malformedSite, at: path, "\"\(site)\" is not a scheme and host alone", fix: fix)
            return false
        }
        return true
    }

    private mutating func reportUnknownKeys(_ members: [JSONMember], known: [String], at path: JSONPath, what: String) {
        var reported = Set<String>()
        for member in members where !known.contains(member.key) && reported.insert(member.key).inserted {
            let suggestion = known.first { KeySpelling.fold($0) == KeySpelling.fold(member.key) }
            add(
                .unknownKey, at: path.appending(member.key), "\"\(member.key)\" is not a key of \(what); it is ignored",
                fix: suggestion.map { "write \"\($0)\"" } ?? "remove it; the keys here are \(known.joined(separator: ", "))")
        }
    }
}

/// Compares key spellings the way people get them wrong: case, `_` and `-` and a plural `s` do not
/// count, so `sha256CertFingerprints` (the linkhost config's key) and `sha256_cert_fingerprint`
/// are both recognised as `sha256_cert_fingerprints`.
enum KeySpelling {
    static func fold(_ key: String) -> String {
        var folded = String(key.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
        if folded.hasSuffix("s") { folded.removeLast() }
        return folded
    }
}
