import OrderedJSON

/// Builds the ``AASADocument`` model from JSON, leniently: a broken entry or component is recorded
/// as a finding and skipped, and everything else is still read.
struct AASADocumentReader {
    private(set) var findings: [AASAFinding] = []

    static let rootKeys = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
    static let appLinksKeys = ["apps", "details", "defaults", "substitutionVariables"]
    static let entryKeys = ["appID", "appIDs", "components", "paths", "defaults"]
    static let componentKeys = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]
    static let serviceKeys = ["apps"]

    struct Services {
        var appLinks: AASAAppLinks?
        var webCredentials: AASAServiceApps?
        var appClips: AASAServiceApps?
        var activityContinuation: AASAServiceApps?
    }

    mutating func readRoot(_ members: [JSONMember]) -> Services {
        let root = JSONObjectFields(members, at: .root)
        reportUnknownKeys(of: root, known: Self.rootKeys, level: "at the top level")
        var services = Services()
        if let value = root["applinks"] {
            let path = JSONPath.root.appending("applinks")
            if let members = value.objectMembers {
                services.appLinks = readAppLinks(JSONObjectFields(members, at: path))
            } else {
                wrongType(at: path, found: value, expected: "an object", consequence: "the applinks section is ignored")
            }
        }
        services.webCredentials = readService(root, key: "webcredentials")
        services.appClips = readService(root, key: "appclips")
        services.activityContinuation = readService(root, key: "activitycontinuation")
        return services
    }

    // MARK: services

    private mutating func readService(_ root: JSONObjectFields, key: String) -> AASAServiceApps? {
        guard let value = root[key] else { return nil }
        let path = JSONPath.root.appending(key)
        guard let members = value.objectMembers else {
            wrongType(at: path, found: value, expected: "an object with \"apps\"", consequence: "the \(key) section is ignored")
            return nil
        }
        let fields = JSONObjectFields(members, at: path)
        reportUnknownKeys(of: fields, known: Self.serviceKeys, level: "in \(key)")
        guard let appsValue = fields["apps"] else { return AASAServiceApps(jsonPath: path, apps: []) }
        let apps = readLocatedStrings(appsValue, at: path.appending("apps"), what: "app IDs") ?? []
        reportDuplicateAppIDs(apps, in: "\(key).apps")
        return AASAServiceApps(jsonPath: path, apps: apps.map(\.text), appPaths: apps.map(\.path))
    }

    // MARK: applinks

    private mutating func readAppLinks(_ fields: JSONObjectFields) -> AASAAppLinks {
        reportUnknownKeys(of: fields, known: Self.appLinksKeys, level: "in applinks")
        let path = fields.path
        var legacyApps: [String]?
        if let value = fields["apps"] {
            legacyApps = readStrings(value, at: path.appending("apps"), what: "app IDs")
        }
        var variables: [AASASubstitutionVariable] = []
        if let value = fields["substitutionVariables"] {
            variables = readVariables(value, at: path.appending("substitutionVariables"))
        }
        var defaults: AASAComponent?
        if let value = fields["defaults"] {
            defaults = readComponent(value, index: 0, at: path.appending("defaults"), role: "domain-level defaults")
        }
        var details: [AASADetailsEntry] = []
        var isDictionary = false
        if let value = fields["details"] {
            let detailsPath = path.appending("details")
            switch value {
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    let entryPath = detailsPath.appending(index)
                    guard let members = element.objectMembers else {
                        wrongType(at: entryPath, found: element, expected: "an object", consequence: "this entry is skipped")
                        continue
                    }
                    if let entry = readEntry(JSONObjectFields(members, at: entryPath), index: index, keyAppID: nil) {
                        details.append(entry)
                    }
                }
            case .object(let members):
                isDictionary = true
                for (index, member) in JSONObjectFields(members, at: detailsPath).members.enumerated() {
                    let entryPath = detailsPath.appending(member.key)
                    guard let entryMembers = member.value.objectMembers else {
                        wrongType(at: entryPath, found: member.value, expected: "an object with \"paths\"", consequence: "this entry is skipped")
                        continue
                    }
                    if let entry = readEntry(JSONObjectFields(entryMembers, at: entryPath), index: index, keyAppID: member.key) {
                        details.append(entry)
                    }
                }
            default:
                wrongType(at: detailsPath, found: value, expected: "an array of objects", consequence: "no entry is read")
            }
        }
        return AASAAppLinks(
            jsonPath: path, defaults: defaults, details: details,
            substitutionVariables: AASASubstitutionVariables(variables),
            legacyApps: legacyApps, detailsIsDictionary: isDictionary)
    }

    private mutating func readVariables(_ value: JSONValue, at path: JSONPath) -> [AASASubstitutionVariable] {
        guard let members = value.objectMembers else {
            wrongType(at: path, found: value, expected: "an object of string arrays", consequence: "no custom variable is defined")
            return []
        }
        var variables: [AASASubstitutionVariable] = []
        for member in JSONObjectFields(members, at: path).members {
            let variablePath = path.appending(member.key)
            guard let values = readStrings(member.value, at: variablePath, what: "values") else { continue }
            variables.append(AASASubstitutionVariable(name: member.key, values: values, jsonPath: variablePath))
        }
        return variables
    }

    // MARK: details entries

    private mutating func readEntry(_ fields: JSONObjectFields, index: Int, keyAppID: String?) -> AASADetailsEntry? {
        reportUnknownKeys(of: fields, known: Self.entryKeys, level: "in a details entry")
        let path = fields.path
        var appIDs: [(text: String, path: JSONPath)] = []
        if let keyAppID { appIDs.append((keyAppID, path)) }
        if let value = fields["appID"] {
            if let appID = value.stringValue {
                appIDs.append((appID, path.appending("appID")))
            } else {
                wrongType(at: path.appending("appID"), found: value, expected: "a string", consequence: "it is ignored")
            }
        }
        if let value = fields["appIDs"], let listed = readLocatedStrings(value, at: path.appending("appIDs"), what: "app IDs") {
            reportDuplicateAppIDs(listed, in: "this appIDs array")
            appIDs.append(contentsOf: listed)
        }
        var unique: [String] = []
        var uniquePaths: [JSONPath] = []
        for appID in appIDs where !unique.contains(appID.text) {
            unique.append(appID.text)
            uniquePaths.append(appID.path)
        }
        guard !unique.isEmpty else {
            findings.append(
                AASAFinding(
                    .entryWithoutApp, at: path,
                    "this details entry names no app (no usable \"appID\" or \"appIDs\"), so it is skipped",
                    fix: "add \"appIDs\": [\"<team ID>.<bundle ID>\"]"))
            return nil
        }
        var components: [AASAComponent]?
        if let value = fields["components"] {
            let componentsPath = path.appending("components")
            if let elements = value.arrayElements {
                var read: [AASAComponent] = []
                for (position, element) in elements.enumerated() {
                    if let component = readComponent(element, index: position, at: componentsPath.appending(position), role: "component") {
                        read.append(component)
                    }
                }
                components = read
            } else {
                wrongType(at: componentsPath, found: value, expected: "an array of objects", consequence: "it is ignored")
            }
        }
        var paths: [AASALegacyPath]?
        if let value = fields["paths"] {
            let pathsPath = path.appending("paths")
            if let elements = value.arrayElements {
                var read: [AASALegacyPath] = []
                for (position, element) in elements.enumerated() {
                    if let text = element.stringValue {
                        read.append(AASALegacyPath(index: position, jsonPath: pathsPath.appending(position), text: text))
                    } else {
                        wrongType(at: pathsPath.appending(position), found: element, expected: "a string", consequence: "this path is skipped")
                    }
                }
                paths = read
            } else {
                wrongType(at: pathsPath, found: value, expected: "an array of strings", consequence: "it is ignored")
            }
        }
        var defaults: AASAComponent?
        if let value = fields["defaults"] {
            defaults = readComponent(value, index: 0, at: path.appending("defaults"), role: "app-level defaults")
        }
        if components == nil, paths == nil {
            findings.append(
                AASAFinding(
                    .entryWithoutRules, at: path,
                    "this entry has neither \"components\" nor \"paths\", so it matches no URL",
                    fix: "add \"components\": [{ \"/\": \"/path/*\" }] or remove the entry"))
        }
        // The form for iOS 12 and 13+ at once: `appID` and `paths` for iOS 12, which reads nothing
        // else; `appIDs` (naming that app too) and `components` for iOS 13+, which ignores `paths`
        // beside `components`.
        let legacyApp = fields["appID"]?.stringValue
        let isDualForm =
            components != nil && paths != nil && legacyApp.map { app in fields["appIDs"]?.arrayElements?.contains(.string(app)) ?? false } ?? false
        return AASADetailsEntry(
            index: index, jsonPath: path, appIDs: unique, appIDPaths: uniquePaths, components: components, paths: paths,
            defaults: defaults, hasBothAppIDKeys: fields["appID"] != nil && fields["appIDs"] != nil, isDualForm: isDualForm,
            hasLegacyAppID: fields["appID"] != nil)
    }

    // MARK: components and defaults

    /// Reads a component or defaults object; `nil` (with findings) when a known key has the wrong type.
    ///
    /// Decision: a wrongly typed key makes the whole component unusable rather than being ignored,
    /// because ignoring `"exclude": "yes"` would silently turn a block rule into an open rule.
    private mutating func readComponent(_ value: JSONValue, index: Int, at path: JSONPath, role: String) -> AASAComponent? {
        guard let members = value.objectMembers else {
            wrongType(at: path, found: value, expected: "an object", consequence: "this \(role) is skipped")
            return nil
        }
        let fields = JSONObjectFields(members, at: path)
        reportUnknownKeys(of: fields, known: Self.componentKeys, level: "in a \(role)")
        var component = AASAComponent(index: index, jsonPath: path)
        var usable = true
        func string(_ key: String) -> String? {
            guard let value = fields[key] else { return nil }
            if let text = value.stringValue { return text }
            wrongType(at: path.appending(key), found: value, expected: "a string", consequence: "this \(role) is skipped")
            usable = false
            return nil
        }
        func bool(_ key: String) -> Bool? {
            guard let value = fields[key] else { return nil }
            if let flag = value.boolValue { return flag }
            wrongType(at: path.appending(key), found: value, expected: "true or false", consequence: "this \(role) is skipped")
            usable = false
            return nil
        }
        component.path = string("/")
        component.fragment = string("#")
        component.comment = string("comment")
        component.exclude = bool("exclude")
        component.caseSensitive = bool("caseSensitive")
        component.percentEncoded = bool("percentEncoded")
        if let query = fields["?"] {
            switch query {
            case .string(let text):
                component.query = .string(text)
            case .object(let members):
                component.query = readQueryItems(JSONObjectFields(members, at: path.appending("?")))
            default:
                wrongType(at: path.appending("?"), found: query, expected: "a string or an object of strings", consequence: "this \(role) is skipped")
                usable = false
            }
        }
        return usable ? component : nil
    }

    private mutating func readQueryItems(_ fields: JSONObjectFields) -> AASAQueryPattern {
        var items: [AASAQueryItemPattern] = []
        for member in fields.members {
            guard let pattern = member.value.stringValue else {
                findings.append(
                    AASAFinding(
                        .nonStringQueryPredicate, at: fields.path.appending(member.key),
                        "the query item \"\(member.key)\" has \(member.value.kindDescription) instead of a pattern string; iOS then ignores the whole \"?\" dictionary, so this rule accepts any query",
                        fix: "write the pattern as a string, e.g. \"\(member.key)\": \"?*\""))
                return .ignoredDictionary(offendingName: member.key)
            }
            items.append(AASAQueryItemPattern(name: member.key, pattern: pattern))
        }
        return .items(items)
    }

    // MARK: helpers

    private mutating func readStrings(_ value: JSONValue, at path: JSONPath, what: String) -> [String]? {
        readLocatedStrings(value, at: path, what: what)?.map(\.text)
    }

    /// The strings of an array with their paths; non-strings are reported and skipped.
    private mutating func readLocatedStrings(_ value: JSONValue, at path: JSONPath, what: String) -> [(text: String, path: JSONPath)]? {
        guard let elements = value.arrayElements else {
            wrongType(at: path, found: value, expected: "an array of strings (\(what))", consequence: "it is ignored")
            return nil
        }
        var strings: [(text: String, path: JSONPath)] = []
        for (index, element) in elements.enumerated() {
            if let text = element.stringValue {
                strings.append((text, path.appending(index)))
            } else {
                wrongType(at: path.appending(index), found: element, expected: "a string", consequence: "this value is skipped")
            }
        }
        return strings
    }

    /// AASA019 for every repeat of an app ID within one list (the repeat adds nothing).
    private mutating func reportDuplicateAppIDs(_ apps: [(text: String, path: JSONPath)], in list: String) {
        var first: [String: JSONPath] = [:]
        for app in apps {
            if let earlier = first[app.text] {
                findings.append(
                    AASAFinding(
                        .duplicateAppID, at: app.path,
                        "\"\(app.text)\" is listed twice in \(list) (first at \(earlier)); the repeat changes nothing",
                        fix: "remove this repeat"))
            } else {
                first[app.text] = app.path
            }
        }
    }

    private mutating func wrongType(at path: JSONPath, found: JSONValue, expected: String, consequence: String) {
        findings.append(
            AASAFinding(
                .wrongType, at: path,
                "expected \(expected), found \(found.kindDescription); \(consequence)",
                fix: "write \(expected) here"))
    }

    private mutating func reportUnknownKeys(of fields: JSONObjectFields, known: [String], level: String) {
        for (key, suggestion) in fields.unknownKeys(known: known) {
            let fix =
                suggestion.map { "rename it to \"\($0)\" (keys are case-sensitive)" }
                ?? "remove it, or use one of: \(known.map { "\"\($0)\"" }.joined(separator: ", "))"
            findings.append(
                AASAFinding(
                    .unknownKey, at: fields.path.appending(key),
                    "\"\(key)\" is not a known key \(level); iOS ignores it", fix: fix))
        }
    }
}
