/// One way in which a copy of an AASA file differs from the file expected, in terms iOS acts on:
/// an app a section names or not, and the rules an app gets in `applinks`.
///
/// A rule is written as compact JSON: a component object (`{"/":"/addfriend","?":{"code":"?*"}}`),
/// a legacy `paths` string (`"/videos/*"`), or an entry's `defaults` object prefixed `defaults `.
public enum AASADifference: Sendable, Hashable {
    /// The expected file names `appID` in `section` (`applinks`, `webcredentials`, ...); the copy does not.
    case appMissing(section: String, appID: String)
    /// The copy names `appID` in `section`; the expected file does not.
    case appUnexpected(section: String, appID: String)
    /// Rules the expected file gives `appID` that the copy lacks.
    case rulesMissing(appID: String, rules: [String])
    /// Rules the copy gives `appID` that the expected file does not.
    case rulesUnexpected(appID: String, rules: [String])
    /// The same rules for `appID`, in another order (the first match wins, so order matters).
    case rulesReordered(appID: String)
    /// Something else differs at `path` (`applinks.defaults`, `applinks.substitutionVariables`, a
    /// top-level key).
    case sectionDiffers(path: String)

    /// A stable name for machine-readable output: `app-missing`, `app-unexpected`, `rules-missing`,
    /// `rules-unexpected`, `rules-reordered` or `section-differs`.
    public var code: String {
        switch self {
        case .appMissing: "app-missing"
        case .appUnexpected: "app-unexpected"
        case .rulesMissing: "rules-missing"
        case .rulesUnexpected: "rules-unexpected"
        case .rulesReordered: "rules-reordered"
        case .sectionDiffers: "section-differs"
        }
    }
}
