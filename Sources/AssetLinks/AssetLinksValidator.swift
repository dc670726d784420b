import OrderedJSON

/// Checks an assetlinks.json file (Google's Digital Asset Links statement list) the way Android's
/// App Links verification reads it, reporting findings with stable codes
/// (``AssetLinksValidationCode``), a JSON path and a fix. It never throws and never traps.
public struct AssetLinksValidator: Sendable {
    /// Deeper documents are reported rather than read (a statement list is four levels deep).
    public static let maximumNestingDepth = 64

    static let statementKeys = ["relation", "target", "relation_extensions"]
    static let androidTargetKeys = ["namespace", "package_name", "sha256_cert_fingerprints"]
    static let webTargetKeys = ["namespace", "site"]

    public init() {}

    /// Validates raw bytes, including whether they are JSON at all.
    public func validate(bytes: [UInt8]) -> [AssetLinksFinding] {
        var findings: [AssetLinksFinding] = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            findings.append(
                AssetLinksFinding(
                    .byteOrderMark, at: .root, "the file starts with a UTF-8 byte order mark; strict JSON readers refuse it",
                    fix: "save the file as UTF-8 without a BOM"))
        }
        let document: JSONValue
        do {
            document = try JSONParser(duplicateKeys: .keepAll, maximumDepth: Self.maximumNestingDepth, allowsByteOrderMark: true).parse(bytes)
        } catch {
            let message =
                bytes.isEmpty
                ? "the file is empty (0 bytes)"
                : error.kind == .nestingTooDeep
                    ? "the file is nested deeper than \(Self.maximumNestingDepth) levels (line \(error.line), column \(error.column)); a statement list needs four"
                    : "the file is not valid JSON (line \(error.line), column \(error.column)): \(error.message)"
            findings.append(
                AssetLinksFinding(
                    .notJSON, at: bytes.isEmpty ? .root : error.path, message,
                    fix: "serve a JSON array of statements: [ { \"relation\": [...], \"target\": {...} } ]"))
            return findings
        }
        return findings + validate(document)
    }

    /// Validates an already parsed document.
    public func validate(_ document: JSONValue) -> [AssetLinksFinding] {
        var findings = document.repeatedKeyPaths().map { path in
            AssetLinksFinding(
                .duplicateKey, at: path, "the key \"\(path.lastKey ?? "")\" appears more than once in this object; readers differ on which one counts",
                fix: "keep one \"\(path.lastKey ?? "")\" and merge the values you need into it")
        }
        guard case .array(let statements) = document else {
            let looksLikeStatement = document["relation"] != nil || document["target"] != nil
            findings.append(
                AssetLinksFinding(
                    .rootNotArray, at: .root, "the top level is \(document.kindDescription); assetlinks.json must be an array of statements",
                    fix: looksLikeStatement ? "wrap the statement in [ ... ]" : "write [ { \"relation\": [...], \"target\": {...} } ]"))
            return findings
        }
        var reader = StatementReader()
        var seen: [JSONValue: Int] = [:]
        for (index, statement) in statements.enumerated() {
            let path = JSONPath.root.appending(index)
            if let first = seen[statement] {
                reader.add(.repeatedStatement, at: path, "this statement repeats statement \(first)", fix: "remove the repeat")
                continue
            }
            seen[statement] = index
            reader.read(statement, at: path)
        }
        findings += reader.findings
        if !reader.grantsAppLinks {
            findings.append(
                AssetLinksFinding(
                    .noAppLinkStatement, at: .root,
                    statements.isEmpty
                        ? "the file lists no statements, so Android verifies no app for this site"
                        : "no statement grants \"\(AssetLinksRelation.handleAllURLs)\" to an Android app, so no App Link of this site is verified",
                    fix:
                        "add { \"relation\": [\"\(AssetLinksRelation.handleAllURLs)\"], \"target\": { \"namespace\": \"android_app\", \"package_name\": \"com.example.app\", \"sha256_cert_fingerprints\": [\"\(CertificateFingerprint.example)\"] } }"
                ))
        }
        return findings
    }
}

/// The relations a statement of assetlinks.json grants; Android and Google's services act on these.
public enum AssetLinksRelation {
    /// The app may open the site's links without asking (Android App Links).
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    /// The app and the site share saved sign-in credentials.
    public static let getLoginCredentials = "delegate_permission/common.get_login_creds"

    public static let known = [handleAllURLs, getLoginCredentials]
}
