import OrderedJSON

/// Stable identifiers of everything `linkhost check` reports about an assetlinks.json file.
///
/// The raw value (`AL001`…) never changes meaning once released; retired codes are not reused.
/// Grouped like the AASA codes: 00x the file, 01x statements, 02x Android app targets, 03x web targets.
public enum AssetLinksValidationCode: String, CaseIterable, Sendable, Hashable, Comparable, FindingCode {
    /// The bytes are not JSON; Android's verifier fails the site.
    case notJSON = "AL001"
    /// Valid JSON, but the top level is not an array of statements.
    case rootNotArray = "AL002"
    /// Starts with a UTF-8 byte order mark, which strict JSON readers refuse.
    case byteOrderMark = "AL003"
    /// An object names the same key twice; readers differ on which one counts.
    case duplicateKey = "AL004"
    /// A key the format does not define (often a typo); it is ignored.
    case unknownKey = "AL005"
    /// A known key holds the wrong type of value; the statement cannot be used.
    case wrongType = "AL006"
    /// No statement grants `delegate_permission/common.handle_all_urls` to an Android app, so no
    /// App Link of the site is verified.
    case noAppLinkStatement = "AL007"
    /// A statement has no `relation`, or an empty one.
    case missingRelation = "AL010"
    /// A relation that is not one of those Android and Google act on (often a typo).
    case unknownRelation = "AL011"
    /// A statement has no `target`.
    case missingTarget = "AL012"
    /// A target's `namespace` is missing or is neither `android_app` nor `web`.
    case unknownNamespace = "AL013"
    /// The same statement appears twice.
    case repeatedStatement = "AL014"
    /// An Android target's `package_name` is missing or not a valid application ID.
    case malformedPackageName = "AL020"
    /// An Android target lists no `sha256_cert_fingerprints`.
    case missingFingerprints = "AL021"
    /// A fingerprint is not 32 bytes of colon-separated hex (SHA-1, missing colons, stray characters).
    case malformedFingerprint = "AL022"
    /// A fingerprint in lower-case hex; the format is upper case, and not every verifier folds case.
    case lowerCaseFingerprint = "AL023"
    /// The same fingerprint twice in one list.
    case repeatedFingerprint = "AL024"
    /// A web target's `site` is not a scheme and host alone (`https://example.com`).
    case malformedSite = "AL030"

    /// The fixed severity of every finding with this code.
    public var severity: AssetLinksSeverity {
        switch self {
        case .notJSON, .rootNotArray, .wrongType, .missingRelation, .missingTarget, .unknownNamespace, .malformedPackageName, .missingFingerprints,
            .malformedFingerprint, .malformedSite:
            .error
        case .byteOrderMark, .duplicateKey, .unknownKey, .noAppLinkStatement, .unknownRelation, .repeatedStatement, .lowerCaseFingerprint,
            .repeatedFingerprint:
            .warning
        }
    }

    public static func < (lhs: AssetLinksValidationCode, rhs: AssetLinksValidationCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One problem found in an assetlinks.json file (see `JSONFinding`).
public typealias AssetLinksFinding = JSONFinding<AssetLinksValidationCode>

/// How bad an assetlinks.json finding is: an error keeps Android from verifying the app; a warning
/// is legal but risky.
public typealias AssetLinksSeverity = FindingSeverity
