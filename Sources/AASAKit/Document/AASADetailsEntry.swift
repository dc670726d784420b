import OrderedJSON

/// One `applinks.details` entry: the apps it is for and the rules they share.
public struct AASADetailsEntry: Sendable, Hashable {
    /// Position among the entries (array index, or key order for the dictionary form).
    public let index: Int
    public let jsonPath: JSONPath
    /// Every app the entry names, `appID` first and then `appIDs`, without repeats.
    ///
    /// Decision: when both keys are present the entry applies to the union of both; the
    /// validator warns (AASA012) because Apple does not say which one wins.
    public let appIDs: [String]
    /// Where each of ``appIDs`` is written (same order); the entry's own path for a dictionary key.
    public let appIDPaths: [JSONPath]
    /// `components`, or `nil` when the key is absent (or not an array).
    public let components: [AASAComponent]?
    /// Legacy `paths`, or `nil` when absent.
    public let paths: [AASALegacyPath]?
    /// The entry's app-level `defaults`.
    public let defaults: AASAComponent?
    /// Whether the entry wrote both `appID` and `appIDs`.
    public let hasBothAppIDKeys: Bool
    /// Whether the entry wrote `appID`: the key iOS 12 reads an entry by (with its `paths`).
    public let hasLegacyAppID: Bool
    /// Whether the entry is one entry for iOS 12 and for iOS 13+ at once: `appID` with legacy
    /// `paths` (all iOS 12 reads), and `appIDs` listing that app too with `components` (iOS 13+
    /// ignores `paths` beside `components`). Apple describes this at WWDC19 ("What's New in Universal
    /// Links"); it is what linkhost's `aasa.legacyPaths` generates. Neither AASA012 nor AASA015 applies.
    public let isDualForm: Bool

    public init(
        index: Int, jsonPath: JSONPath = .root, appIDs: [String], appIDPaths: [JSONPath]? = nil, components: [AASAComponent]? = nil,
        paths: [AASALegacyPath]? = nil, defaults: AASAComponent? = nil, hasBothAppIDKeys: Bool = false, isDualForm: Bool = false,
        hasLegacyAppID: Bool = false
    ) {
        self.index = index
        self.jsonPath = jsonPath
        self.appIDs = appIDs
        self.appIDPaths = appIDPaths ?? Array(repeating: jsonPath, count: appIDs.count)
        self.components = components
        self.paths = paths
        self.defaults = defaults
        self.hasBothAppIDKeys = hasBothAppIDKeys
        self.hasLegacyAppID = hasLegacyAppID || hasBothAppIDKeys
        self.isDualForm = isDualForm
    }

    /// Which rules iOS 13+ reads: `components` whenever the key is present, else `paths`.
    ///
    /// Decision: an entry with both uses only `components`, as Apple stated at
    /// WWDC19 ("will ignore it if the components key is present"); an entry with neither matches nothing.
    public var activeRules: AASARuleKind? {
        if components != nil { return .component }
        if paths != nil { return .legacyPath }
        return nil
    }
}
