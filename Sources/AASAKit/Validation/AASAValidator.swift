import OrderedJSON

/// Checks an AASA file against Apple's rules and common mistakes, reporting findings with stable
/// codes (``AASAValidationCode``), a JSON path, and a fix. It never throws and never traps.
public struct AASAValidator: Sendable {
    /// iOS 9.3.1+ refuses files larger than this (the downloader caps its buffer at 0x20000 bytes).
    public static let maximumFileSize = 131_072

    public init() {}

    /// Validates raw bytes, including whether they are JSON at all.
    public func validate(bytes: [UInt8]) -> AASAValidationReport {
        do {
            let document = try AASADocument(bytes: bytes)
            return AASAValidationReport(findings: findings(for: document), document: document)
        } catch {
            var findings: [AASAFinding] = []
            if bytes.count > Self.maximumFileSize { findings.append(Self.sizeFinding(bytes.count)) }
            switch error {
            case .notJSON(let syntax) where bytes.isEmpty:
                findings.append(
                    AASAFinding(
                        .notJSON, at: syntax.path, "the file is empty (0 bytes)",
                        fix: "serve the JSON object itself: { \"applinks\": { ... } }"))
            case .notJSON(let syntax) where syntax.kind == .nestingTooDeep:
                let (path, text) = syntax.path.shortened()
                findings.append(
                    AASAFinding(
                        .notJSON, at: path,
                        "the file is nested deeper than \(AASADocument.maximumNestingDepth) levels (line \(syntax.line), column \(syntax.column), under \(text)); linkhost stops reading there, and an AASA file needs a handful",
                        fix: "remove the runaway nesting; the deepest AASA value is a pattern inside a component, about six levels down"))
            case .notJSON(let syntax):
                findings.append(
                    AASAFinding(
                        .notJSON, at: syntax.path,
                        "the file is not valid JSON (line \(syntax.line), column \(syntax.column)): \(syntax.message)",
                        fix: "correct the JSON; iOS ignores a file that does not parse"))
            case .malformedSignature(let reason):
                findings.append(
                    AASAFinding(
                        .notJSON, at: .root, "the file starts like a CMS (PKCS #7) signed envelope but cannot be unwrapped: \(reason)",
                        fix: "serve the JSON itself with Content-Type: application/json; signing has been unnecessary since iOS 9"))
            case .rootNotObject(let found):
                findings.append(
                    AASAFinding(
                        .rootNotObject, at: .root,
                        "the top level is \(found); the file must be a JSON object", fix: "wrap the content as { \"applinks\": { ... } }"))
            }
            return AASAValidationReport(findings: findings, document: nil)
        }
    }

    /// Validates an already parsed document.
    public func validate(_ document: AASADocument) -> AASAValidationReport {
        AASAValidationReport(findings: findings(for: document), document: document)
    }

    private func findings(for document: AASADocument) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        if let size = document.byteCount, size > Self.maximumFileSize { findings.append(Self.sizeFinding(size)) }
        findings += document.diagnostics
        for service in [document.webCredentials, document.appClips, document.activityContinuation].compactMap({ $0 }) {
            for (appID, path) in zip(service.apps, service.appPaths) { findings += Self.appIDFindings(appID, at: path) }
        }
        guard let appLinks = document.appLinks else {
            findings.append(
                AASAFinding(
                    .noAppLinks, at: .root,
                    "the file has no \"applinks\" section, so no URL opens an app",
                    fix: "add \"applinks\": { \"details\": [ { \"appIDs\": [...], \"components\": [...] } ] }"))
            return findings
        }
        findings += appLinksFindings(appLinks)
        return findings
    }

    private func appLinksFindings(_ appLinks: AASAAppLinks) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        let detailsPath = appLinks.jsonPath.appending("details")
        if let apps = appLinks.legacyApps, !apps.isEmpty {
            findings.append(
                AASAFinding(
                    .legacyAppsNotEmpty, at: appLinks.jsonPath.appending("apps"),
                    "the legacy \"apps\" array must be empty; app IDs belong in \"details\"",
                    fix: "write \"apps\": [] (or drop the key) and list the apps in details[].appIDs"))
        }
        if appLinks.details.isEmpty {
            findings.append(
                AASAFinding(
                    .noDetails, at: detailsPath,
                    "applinks has no usable details entry, so no URL opens an app",
                    fix: "add \"details\": [ { \"appIDs\": [\"<team ID>.<bundle ID>\"], \"components\": [ { \"/\": \"/path/*\" } ] } ]"))
        }
        if appLinks.detailsIsDictionary {
            findings.append(
                AASAFinding(
                    .legacyDetailsDictionary, at: detailsPath,
                    "\"details\" is the iOS 9 dictionary keyed by app ID; current systems document an array, and a dictionary has no defined order",
                    fix: "write \"details\": [ { \"appIDs\": [\"<app ID>\"], \"paths\": [...] } ]"))
        }
        let variables = appLinks.substitutionVariables
        findings += VariableChecks.findings(for: variables, referenced: VariableChecks.referencedNames(in: appLinks))
        if let defaults = appLinks.defaults {
            findings += PatternChecks.findings(
                for: defaults, percentEncoded: defaults.percentEncoded ?? true,
                caseSensitive: defaults.caseSensitive ?? true, variables: variables)
        }
        var firstEntryOfApp: [String: JSONPath] = [:]
        for entry in appLinks.details {
            findings += entryFindings(entry, appLinks: appLinks)
            for appID in entry.appIDs {
                if let earlier = firstEntryOfApp[appID] {
                    findings.append(
                        AASAFinding(
                            .appInSeveralEntries, at: entry.jsonPath,
                            "\"\(appID)\" is also listed in \(earlier); this entry is consulted for it only when the earlier one does not decide",
                            fix: "merge the rules for \"\(appID)\" into one entry, in the order they should apply"))
                } else {
                    firstEntryOfApp[appID] = entry.jsonPath
                }
            }
        }
        return findings
    }

    private func entryFindings(_ entry: AASADetailsEntry, appLinks: AASAAppLinks) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        for (appID, path) in zip(entry.appIDs, entry.appIDPaths) { findings += Self.appIDFindings(appID, at: path) }
        if entry.hasBothAppIDKeys, !entry.isDualForm {
            findings.append(
                AASAFinding(
                    .appIDAndAppIDs, at: entry.jsonPath,
                    "the entry has both \"appID\" and \"appIDs\" but is not the one-entry form for iOS 12 and 13+ (\"appID\" with \"paths\", \"appIDs\" naming that app too with \"components\"); Apple does not say which key wins, and linkhost uses both",
                    fix:
                        "use \"appIDs\" alone, or complete the form for iOS 12: list the \"appID\" app in \"appIDs\" and give both \"paths\" and \"components\""
                ))
        }
        // An entry with `appID` serves iOS 12 its `paths` (it reads nothing else), whatever else the
        // entry holds: only an entry without one has paths no device reads.
        if entry.components != nil, entry.paths != nil, !entry.isDualForm, !entry.hasLegacyAppID {
            findings.append(
                AASAFinding(
                    .pathsBesideComponents, at: entry.jsonPath.appending("paths"),
                    "the entry has both \"components\" and legacy \"paths\" but no \"appID\": iOS 13 and later ignore \"paths\" beside \"components\", and iOS 12 reads only entries with \"appID\", so no device reads these paths",
                    fix:
                        "remove \"paths\", or add \"appID\" (one of the \"appIDs\") to serve iOS 12 from this entry; keep the paths in this entry — in an entry of their own iOS 13 and later would read them too"
                ))
        }
        let variables = appLinks.substitutionVariables
        let domainDefaults = appLinks.defaults
        if let defaults = entry.defaults {
            let merged = defaults.filling(from: domainDefaults)
            findings += PatternChecks.findings(
                for: defaults, percentEncoded: merged.percentEncoded ?? true,
                caseSensitive: merged.caseSensitive ?? true, variables: variables)
        }
        for path in entry.paths ?? [] {
            if let intended = ExclusionLookalikes.intendedPattern(path.text, legacy: true) {
                findings.append(ExclusionLookalikes.legacyFinding(path, intended: intended))
            } else {
                // Legacy paths compare the path as written and case-sensitively, with no variables.
                findings += PatternChecks.findings(
                    for: path.pattern, at: path.jsonPath, role: .urlPath, percentEncoded: true, caseSensitive: true, variables: nil)
            }
        }
        let compiled = CompiledEntry(entry, domainDefaults: domainDefaults, variables: variables)
        if case .components(let components) = compiled.rules {
            // By index, once: a file near iOS's 128 KB holds thousands of components.
            let writtenByIndex = Dictionary((entry.components ?? []).map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
            for component in components {
                guard let written = writtenByIndex[component.index] else { continue }
                findings += PatternChecks.findings(
                    for: written, percentEncoded: component.percentEncoded,
                    caseSensitive: component.caseSensitive, variables: variables)
            }
        }
        findings += RuleOrderChecks.findings(for: compiled)
        return findings
    }

    private static func appIDFindings(_ appID: String, at path: JSONPath) -> [AASAFinding] {
        switch AppIDFormat.check(appID) {
        case .valid:
            return []
        case .unusualTeamID(let message):
            return [
                AASAFinding(
                    .unusualTeamID, at: path, message,
                    fix: "use the 10-character Team ID from the Apple Developer account (Membership details)")
            ]
        case .malformed(let message):
            return [
                AASAFinding(
                    .malformedAppID, at: path, message,
                    fix: "write <team ID>.<bundle ID>, e.g. ABCDE12345.com.example.app")
            ]
        }
    }

    private static func sizeFinding(_ size: Int) -> AASAFinding {
        AASAFinding(
            .fileTooLarge, at: .root,
            "the file is \(size) bytes; iOS refuses AASA files larger than \(maximumFileSize) bytes (128 KB)",
            fix: "merge rules with wildcards or substitution variables until the file is at most 128 KB")
    }
}

/// Everything the validator found in one file, and the document when it could be read.
public struct AASAValidationReport: Sendable {
    /// Findings in a stable order: file-level first, then in document order per check.
    public let findings: [AASAFinding]
    /// The parsed file; `nil` when the bytes are not a JSON object (then a finding says why).
    public let document: AASADocument?

    public init(findings: [AASAFinding], document: AASADocument?) {
        self.findings = findings
        self.document = document
    }

    public var errors: [AASAFinding] { findings.filter { $0.severity == .error } }
    public var warnings: [AASAFinding] { findings.filter { $0.severity == .warning } }
    /// Whether anything would keep iOS from using the file as written.
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// The findings with one code.
    public func findings(_ code: AASAValidationCode) -> [AASAFinding] { findings.filter { $0.code == code } }
}

extension JSONPath {
    /// The first `steps` steps of a long path (where a runaway nesting starts), and its text with
    /// `…` and the full depth when cut; a short path is itself.
    func shortened(keeping steps: Int = 4) -> (path: JSONPath, text: String) {
        guard self.steps.count > steps else { return (self, description) }
        let kept = JSONPath(steps: Array(self.steps.prefix(steps)))
        return (kept, "\(kept)… (\(self.steps.count) levels down)")
    }
}
