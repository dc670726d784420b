import OrderedJSON

/// How a copy of an AASA file differs from the file expected: first whether the two are the same
/// JSON at all (layout and key order aside), and if not, which apps each section names and, per
/// app, which `applinks` rules it gets — what decides whether a device opens a link.
///
/// Rules are compared per app, in the order iOS tries them for that app (every `details` entry
/// naming it, in file order: the entry's `defaults`, its `components`, its legacy `paths`), so a
/// rule moved from one entry to another for the same app is no difference, while two rules that
/// swapped places are. A rule's identity is its JSON, comment included: a changed comment is a
/// changed file, and the copy is then not the file served.
public struct AASAComparison: Sendable {
    /// What differs, in this order: `applinks` apps and rules, the other sections' apps, then any
    /// other part of the file (a path per section, only where nothing more specific was found).
    public let differences: [AASADifference]
    /// Whether the two files are the same JSON (see `JSONValue.isEquivalent(to:)`).
    public let isEquivalent: Bool

    public init(expected: AASADocument, found: AASADocument) {
        isEquivalent = expected.root.isEquivalent(to: found.root)
        guard !isEquivalent else {
            differences = []
            return
        }
        var differences = Self.appLinksDifferences(expected: expected, found: found)
        let services: [(String, KeyPath<AASADocument, AASAServiceApps?>)] = [
            ("webcredentials", \.webCredentials), ("appclips", \.appClips), ("activitycontinuation", \.activityContinuation),
        ]
        for (section, keyPath) in services {
            let expectedApps = expected[keyPath: keyPath]?.apps ?? []
            let foundApps = found[keyPath: keyPath]?.apps ?? []
            differences += expectedApps.filter { !foundApps.contains($0) }.uniqued().map { .appMissing(section: section, appID: $0) }
            differences += foundApps.filter { !expectedApps.contains($0) }.uniqued().map { .appUnexpected(section: section, appID: $0) }
        }
        // Whatever the specific comparisons above cannot see (applinks' defaults or variables, the
        // legacy `apps` array, keys of no known section), named by where it is.
        for path in ["applinks.defaults", "applinks.substitutionVariables"] {
            let steps = JSONPath(steps: path.split(separator: ".").map { .key(String($0)) })
            if !Self.same(expected.root.value(at: steps), found.root.value(at: steps)) {
                differences.append(.sectionDiffers(path: path))
            }
        }
        let keys = ((expected.root.objectMembers ?? []) + (found.root.objectMembers ?? [])).map(\.key).uniqued()
        for key in keys where !Self.same(expected.root[key], found.root[key]) {
            let reported = differences.contains { Self.section(of: $0) == key }
            if !reported { differences.append(.sectionDiffers(path: key)) }
        }
        self.differences = differences
    }

    /// Apps only one file opens links for, and per app in both, the rules only one gives it.
    private static func appLinksDifferences(expected: AASADocument, found: AASADocument) -> [AASADifference] {
        let expectedRules = rulesByApp(expected)
        let foundRules = rulesByApp(found)
        let expectedApps = Set(expectedRules.map(\.appID))
        var differences: [AASADifference] = []
        for (appID, rules) in expectedRules {
            guard let other = foundRules.first(where: { $0.appID == appID })?.rules else {
                differences.append(.appMissing(section: "applinks", appID: appID))
                continue
            }
            let missing = rules.subtractingEach(other)
            let unexpected = other.subtractingEach(rules)
            if !missing.isEmpty { differences.append(.rulesMissing(appID: appID, rules: missing)) }
            if !unexpected.isEmpty { differences.append(.rulesUnexpected(appID: appID, rules: unexpected)) }
            if missing.isEmpty, unexpected.isEmpty, rules != other { differences.append(.rulesReordered(appID: appID)) }
        }
        for (appID, _) in foundRules where !expectedApps.contains(appID) {
            differences.append(.appUnexpected(section: "applinks", appID: appID))
        }
        return differences
    }

    /// Each app of `applinks` (in order of first appearance) with its rules in the order iOS tries them.
    static func rulesByApp(_ document: AASADocument) -> [(appID: String, rules: [String])] {
        guard let appLinks = document.appLinks else { return [] }
        var order: [String] = []
        var rules: [String: [String]] = [:]
        for entry in appLinks.details {
            var entryRules: [String] = []
            if let defaults = entry.defaults {
                entryRules.append("defaults " + text(of: defaults, in: document))
            }
            for component in entry.components ?? [] {
                entryRules.append(text(of: component, in: document))
            }
            for path in entry.paths ?? [] {
                entryRules.append(JSONValue.string(path.text).jsonText(.compact))
            }
            for appID in entry.appIDs {
                if rules[appID] == nil { order.append(appID) }
                rules[appID, default: []] += entryRules
            }
        }
        return order.map { ($0, rules[$0] ?? []) }
    }

    /// A component's JSON as written in the file, compact.
    private static func text(of component: AASAComponent, in document: AASADocument) -> String {
        document.root.value(at: component.jsonPath).map { $0.jsonText(.compact) } ?? component.jsonPath.description
    }

    private static func same(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): left.isEquivalent(to: right)
        default: false
        }
    }

    /// The top-level key a difference is about.
    private static func section(of difference: AASADifference) -> String {
        switch difference {
        case .appMissing(let section, _), .appUnexpected(let section, _): section
        case .rulesMissing, .rulesUnexpected, .rulesReordered: "applinks"
        case .sectionDiffers(let path): String(path.prefix { $0 != "." })
        }
    }
}

extension Array where Element == String {
    /// The elements without those of `other`, each of `other` taking away one equal element (so a
    /// rule written twice in one file and once in the other leaves one).
    fileprivate func subtractingEach(_ other: [String]) -> [String] {
        var counts: [String: Int] = [:]
        for element in other { counts[element, default: 0] += 1 }
        return filter { element in
            guard let count = counts[element], count > 0 else { return true }
            counts[element] = count - 1
            return false
        }
    }

    /// The elements without repeats, in first-occurrence order.
    fileprivate func uniqued() -> [String] {
        var seen = Set<String>()
        return filter { seen.insert($0).inserted }
    }
}
