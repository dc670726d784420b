import OrderedJSON

/// Generates a site's apple-app-site-association document from its link rules, so the file and
/// the fallback routes come from one source and cannot disagree.
///
/// Shape: one `applinks.details` entry for the site's app IDs with a modern `components` list (one
/// component per rule, in rule order, after any extra components such as excludes) and — in the
/// same entry, for iOS 12 and older — a legacy `appID` and `paths` list. iOS 13 and later ignore
/// `paths` when `components` is present in an entry (WWDC19), so the legacy list can be broader
/// (it cannot express query constraints) without widening what modern devices open. Putting the
/// legacy form in a separate entry would be wrong: iOS 13+ would consult it after the modern entry
/// missed, opening links the rules do not serve.
public enum AASAGenerator {
    /// What a site adds to the generated file.
    public struct Options: Sendable {
        /// Components placed before the rules' own (typically `exclude` components).
        public var extraComponents: [JSONValue]
        /// Other top-level sections copied as written (`webcredentials`, `appclips`, ...).
        public var passThroughSections: [JSONMember]
        /// Whether to add the legacy `appID` + `paths` form.
        public var legacyPaths: Bool

        public init(extraComponents: [JSONValue] = [], passThroughSections: [JSONMember] = [], legacyPaths: Bool = true) {
            self.extraComponents = extraComponents
            self.passThroughSections = passThroughSections
            self.legacyPaths = legacyPaths
        }
    }

    /// The whole document.
    public static func document(rules: [LinkRule], appIDs: [String], options: Options = Options()) -> JSONValue {
        var entry: [JSONMember] = []
        if options.legacyPaths, let first = appIDs.first {
            entry.append(JSONMember("appID", .string(first)))
        }
        entry.append(JSONMember("appIDs", .array(appIDs.map { .string($0) })))
        entry.append(JSONMember("components", .array(options.extraComponents + rules.map(component(for:)))))
        if options.legacyPaths {
            entry.append(JSONMember("paths", .array(legacyPaths(rules: rules, extraComponents: options.extraComponents).map { .string($0) })))
        }
        var applinks: [JSONMember] = []
        if options.legacyPaths { applinks.append(JSONMember("apps", .array([]))) }
        applinks.append(JSONMember("details", .array([.object(entry)])))
        return .object([JSONMember("applinks", .object(applinks))] + options.passThroughSections)
    }

    /// The component a rule generates: its path pattern, its query constraints (fixed values,
    /// `""` for must-be-absent, `?*` for required), its comment.
    public static func component(for rule: LinkRule) -> JSONValue {
        var members: [JSONMember] = []
        members.append(JSONMember("comment", .string(rule.comment ?? rule.name)))
        members.append(JSONMember("/", .string(rule.path.aasaPattern)))
        var query: [JSONMember] = []
        for parameter in rule.queryParameters {
            switch parameter.constraint {
            case .fixed(let value): query.append(JSONMember(parameter.name, .string(value)))
            case .absent: query.append(JSONMember(parameter.name, .string("")))
            case .typed(_, let required): if required { query.append(JSONMember(parameter.name, .string("?*"))) }
            }
        }
        if !query.isEmpty { members.append(JSONMember("?", .object(query))) }
        if !rule.caseSensitive { members.append(JSONMember("caseSensitive", .bool(false))) }
        return .object(members)
    }

    /// Legacy paths: excluded paths first as `NOT …`, then each distinct rule path.
    static func legacyPaths(rules: [LinkRule], extraComponents: [JSONValue]) -> [String] {
        var paths: [String] = []
        for component in extraComponents where component["exclude"] == .bool(true) {
            // Only a pure path exclusion can be said in the legacy form.
            guard let members = component.objectMembers, members.allSatisfy({ ["/", "exclude", "comment"].contains($0.key) }),
                let path = component["/"]?.stringValue
            else { continue }
            paths.append("NOT \(path)")
        }
        for rule in rules where !paths.contains(rule.path.aasaPattern) {
            paths.append(rule.path.aasaPattern)
        }
        return paths
    }
}
