import OrderedJSON

/// A parsed apple-app-site-association file: every shape seen in the wild (modern `components`,
/// legacy `paths`, the oldest `details` dictionary) in one model, plus what was wrong with it.
///
/// Parsing is lenient: only bytes that are not a JSON object throw; a broken entry or component is
/// skipped and described in ``diagnostics`` with its JSON path.
///
/// Decisions: a leading UTF-8 byte order mark is skipped and reported (AASA004), because the
/// file is still unambiguous; duplicate keys are accepted with the **last** occurrence winning, as
/// Foundation's `JSONSerialization` (which `swcd` uses) builds an `NSDictionary`, and reported (AASA005).
public struct AASADocument: Sendable {
    /// The JSON as read, members in document order.
    public let root: JSONValue
    /// Size of the file in bytes, when it was read from bytes or text.
    public let byteCount: Int?
    /// Whether the bytes started with a UTF-8 byte order mark.
    public let startsWithByteOrderMark: Bool
    /// Whether the JSON came wrapped in a CMS (PKCS #7) signature (read, not verified).
    public let isSigned: Bool
    /// The `applinks` section, or `nil` when the file has none (or it is not an object).
    public let appLinks: AASAAppLinks?
    public let webCredentials: AASAServiceApps?
    public let appClips: AASAServiceApps?
    public let activityContinuation: AASAServiceApps?
    /// Structural problems found while reading (wrong types, unknown or duplicate keys, skipped entries).
    public let diagnostics: [AASAFinding]

    /// Deepest JSON nesting read; deeper input is reported as not JSON instead of recursing further.
    public static let maximumNestingDepth = 128

    /// Reads a file's bytes: JSON, or JSON in a CMS signed envelope (how iOS 8 wanted it; the
    /// `swcd` parser still accepts both), which is unwrapped and reported (AASA040).
    public init(bytes: [UInt8]) throws(AASADocumentError) {
        let content = try AASAFileContent(fileBytes: bytes)
        let json = content.json
        let parser = JSONParser(duplicateKeys: .keepAll, maximumDepth: Self.maximumNestingDepth, allowsByteOrderMark: true)
        let value: JSONValue
        do {
            value = try parser.parse(json)
        } catch {
            throw .notJSON(error)
        }
        let hasBOM = json.starts(with: [0xEF, 0xBB, 0xBF])
        // The size limit is on the file as served, envelope included ("regardless of whether the
        // file is signed").
        try self.init(json: value, byteCount: bytes.count, startsWithByteOrderMark: hasBOM, isSigned: content.wasSigned)
    }

    /// Reads a file's text (its UTF-8 bytes).
    public init(text: String) throws(AASADocumentError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Reads an already parsed document, e.g. an AASA written inline in the linkhost config.
    public init(json: JSONValue, byteCount: Int? = nil) throws(AASADocumentError) {
        try self.init(json: json, byteCount: byteCount, startsWithByteOrderMark: false, isSigned: false)
    }

    private init(json: JSONValue, byteCount: Int?, startsWithByteOrderMark: Bool, isSigned: Bool) throws(AASADocumentError) {
        guard let members = json.objectMembers else { throw .rootNotObject(found: json.kindDescription) }
        var diagnostics: [AASAFinding] = []
        if isSigned { diagnostics.append(AASAFileContent.signedFileFinding) }
        if startsWithByteOrderMark {
            diagnostics.append(
                AASAFinding(
                    .byteOrderMark, at: .root,
                    "the file starts with a UTF-8 byte order mark; strict JSON readers refuse it",
                    fix: "save the file as UTF-8 without a BOM"))
        }
        diagnostics += DuplicateKeyScanner.findings(in: json)
        var reader = AASADocumentReader()
        let services = reader.readRoot(members)
        diagnostics += reader.findings
        root = json
        self.byteCount = byteCount
        self.startsWithByteOrderMark = startsWithByteOrderMark
        self.isSigned = isSigned
        appLinks = services.appLinks
        webCredentials = services.webCredentials
        appClips = services.appClips
        activityContinuation = services.activityContinuation
        self.diagnostics = diagnostics
    }

    /// Every app ID the file names, in order of first appearance, across all services.
    public var allAppIDs: [String] {
        var ids: [String] = []
        func add(_ id: String) { if !ids.contains(id) { ids.append(id) } }
        for entry in appLinks?.details ?? [] { for appID in entry.appIDs { add(appID) } }
        for service in [webCredentials, appClips, activityContinuation] { for appID in service?.apps ?? [] { add(appID) } }
        return ids
    }
}

/// A flat `{ "apps": [...] }` service: `webcredentials`, `appclips` or `activitycontinuation`.
public struct AASAServiceApps: Sendable, Hashable {
    public let jsonPath: JSONPath
    /// The app IDs listed, in order.
    public let apps: [String]
    /// Where each of ``apps`` is written (same order).
    public let appPaths: [JSONPath]

    public init(jsonPath: JSONPath, apps: [String], appPaths: [JSONPath]? = nil) {
        self.jsonPath = jsonPath
        self.apps = apps
        self.appPaths = appPaths ?? apps.indices.map { jsonPath.appending("apps").appending($0) }
    }
}

/// Reports every object in a document that names a key twice (AASA005).
enum DuplicateKeyScanner {
    static func findings(in root: JSONValue) -> [AASAFinding] {
        root.repeatedKeyPaths().map { path in
            let key = path.lastKey ?? ""
            return AASAFinding(
                .duplicateKey, at: path,
                "the key \"\(key)\" appears more than once in this object; only the last one is used",
                fix: "keep one \"\(key)\" and merge the values you need into it")
        }
    }
}
