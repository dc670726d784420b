import OrderedJSON

/// Stable identifiers of everything `linkhost check` reports about an AASA file.
///
/// The raw value (`AASA001`…) never changes meaning once released; retired codes are not reused.
/// Codes are grouped: 00x the file, 01x apps and entries, 02x rules, 03x substitution variables,
/// 04x how the file is packaged.
public enum AASAValidationCode: String, CaseIterable, Sendable, Hashable, Comparable, FindingCode {
    /// The bytes are not JSON at all; iOS ignores the file.
    case notJSON = "AASA001"
    /// The JSON is valid but its top level is not an object.
    case rootNotObject = "AASA002"
    /// Larger than 131072 bytes; iOS 9.3.1+ refuses the whole file.
    case fileTooLarge = "AASA003"
    /// Starts with a UTF-8 byte order mark; read here, but strict JSON readers refuse it.
    case byteOrderMark = "AASA004"
    /// An object names the same key twice; the last one is used.
    case duplicateKey = "AASA005"
    /// A key this format does not define (often a typo); the system ignores it.
    case unknownKey = "AASA006"
    /// A known key holds the wrong type of value; the enclosing rule or key is skipped.
    case wrongType = "AASA007"
    /// The file has no `applinks` section, so no URL opens an app.
    case noAppLinks = "AASA008"
    /// `applinks` has no usable `details` entry.
    case noDetails = "AASA009"
    /// An app ID is not `<team ID>.<bundle ID>`.
    case malformedAppID = "AASA010"
    /// An app ID's team prefix is not ten upper-case letters or digits (e.g. the placeholder `TEAMID`).
    case unusualTeamID = "AASA011"
    /// An entry has both `appID` and `appIDs`; both are used.
    case appIDAndAppIDs = "AASA012"
    /// A `details` entry names no app; it is skipped.
    case entryWithoutApp = "AASA013"
    /// A `details` entry has neither `components` nor `paths`; it matches nothing.
    case entryWithoutRules = "AASA014"
    /// An entry has both `components` and `paths`; iOS 13+ ignores `paths`.
    case pathsBesideComponents = "AASA015"
    /// The same app ID appears in several `details` entries; later ones only apply when earlier ones don't decide.
    case appInSeveralEntries = "AASA016"
    /// `details` is the oldest dictionary form keyed by app ID.
    case legacyDetailsDictionary = "AASA017"
    /// The legacy `applinks.apps` array is not empty; it must be `[]`.
    case legacyAppsNotEmpty = "AASA018"
    /// One list names the same app ID twice (an `appIDs` array, or a service's `apps`).
    case duplicateAppID = "AASA019"
    /// A rule can never decide anything because an earlier rule of the same entry covers it.
    case shadowedRule = "AASA020"
    /// A rule opens every URL of the site in the app.
    case wholeSiteCatchAll = "AASA021"
    /// A query dictionary has a non-string predicate; iOS then ignores the whole dictionary.
    case nonStringQueryPredicate = "AASA022"
    /// A pattern has non-ASCII characters but compares percent-encoded URLs, so it never matches them.
    case nonASCIIPatternWhileEncoded = "AASA023"
    /// A pattern can never match because it expands to too many matching steps.
    case patternTooComplex = "AASA024"
    /// An exclusion of every URL (`{"/": "*", "exclude": true}`, `"NOT *"`) before every rule that
    /// opens the app: no link of the entry's apps opens.
    case wholeSiteExclusion = "AASA025"
    /// An exclusion of every URL after some rules that open the app: every rule after it is dead.
    case wholeSiteExclusionShadows = "AASA026"
    /// A rule that looks like an exclusion but is not one: `"not /x"`, `"NOT/x"`, `"NOT  /x"` in
    /// legacy `paths` (only `NOT ` with one space is), or a component path starting with `NOT `.
    case exclusionLookalike = "AASA027"
    /// A pattern holds a character no URL holds as written (a raw space, `"`, `<`, `{`, …) while the
    /// URL is compared percent-encoded, so that part never matches.
    case characterNotInURL = "AASA028"
    /// A pattern with so many `*` that it is almost certainly a mistake, and costly to match.
    case pathologicalPattern = "AASA029"
    /// `$(name)` names no variable; the pattern never matches.
    case unknownVariable = "AASA030"
    /// `$(` is never closed; the pattern never matches.
    case unterminatedVariable = "AASA031"
    /// A variable's value contains `$(`; values may not use other variables.
    case variableInVariableValue = "AASA032"
    /// A variable name is empty or contains `$`, `(` or `)`.
    case invalidVariableName = "AASA033"
    /// A custom variable reuses a predefined name such as `alpha`.
    case variableShadowsPredefined = "AASA034"
    /// A variable has no values, so every pattern using it never matches.
    case emptyVariable = "AASA035"
    /// A variable has the empty string among its values, so `$(name)` may also stand for nothing.
    case emptyVariableValue = "AASA036"
    /// A variable no pattern uses.
    case unusedVariable = "AASA037"
    /// The JSON is wrapped in a CMS (PKCS #7) signature, as iOS 8 required; signing is obsolete.
    case signedFile = "AASA040"

    /// The fixed severity of every finding with this code.
    public var severity: AASASeverity {
        switch self {
        case .notJSON, .rootNotObject, .fileTooLarge, .wrongType, .malformedAppID, .entryWithoutApp,
            .nonStringQueryPredicate, .patternTooComplex, .wholeSiteExclusion, .exclusionLookalike, .unknownVariable, .unterminatedVariable,
            .variableInVariableValue, .invalidVariableName:
            .error
        case .byteOrderMark, .duplicateKey, .unknownKey, .noAppLinks, .noDetails, .unusualTeamID, .appIDAndAppIDs,
            .entryWithoutRules, .pathsBesideComponents, .appInSeveralEntries, .legacyDetailsDictionary,
            .legacyAppsNotEmpty, .shadowedRule, .wholeSiteCatchAll, .wholeSiteExclusionShadows, .nonASCIIPatternWhileEncoded,
            .variableShadowsPredefined, .emptyVariable, .duplicateAppID, .characterNotInURL, .pathologicalPattern,
            .emptyVariableValue, .unusedVariable, .signedFile:
            .warning
        }
    }

    public static func < (lhs: AASAValidationCode, rhs: AASAValidationCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One problem found in an AASA file (see `JSONFinding`).
public typealias AASAFinding = JSONFinding<AASAValidationCode>

/// How bad an AASA finding is: an error breaks links or is ignored by iOS; a warning is legal but risky.
public typealias AASASeverity = FindingSeverity
