import AASAKit
import OrderedJSON

/// Apple's matching rules read straight off the JSON, written apart from AASAKit as the oracle for
/// files from the wild: the spec's decisions (first match per entry, per-app evaluation across
/// entries, `components` before `paths`, `NOT ` exclusions, defaults at two levels, query items
/// where every occurrence must match and an absent one reads as "") with the backtracking
/// ``NaiveWildcardMatcher``. It skips what it does not model — substitution variables and
/// `percentEncoded: false` — by throwing ``Unsupported``; broken entries and components are skipped
/// the way the spec's lenient reading skips them.
struct ReferenceAASAEvaluator {
    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    struct Answer: Equatable, CustomStringConvertible {
        let decision: AASADecision
        let detailsIndex: Int?
        let ruleIndex: Int?
        var description: String { "\(decision) \(detailsIndex.map(String.init) ?? "-")/\(ruleIndex.map(String.init) ?? "-")" }
    }

    enum Query {
        case any
        case whole(String)
        case items([(name: String, pattern: String)])
    }

    enum Rule {
        case component(index: Int, path: String?, query: Query, fragment: String?, exclude: Bool, caseSensitive: Bool)
        case legacy(index: Int, pattern: String, exclude: Bool)
    }

    struct Entry {
        let index: Int
        let apps: [String]
        let rules: [Rule]
    }

    let entries: [Entry]

    init(_ root: JSONValue) throws(Unsupported) {
        guard let appLinks = root["applinks"], appLinks.objectMembers != nil else {
            entries = []
            return
        }
        if appLinks["substitutionVariables"] != nil { throw Unsupported(description: "substitution variables") }
        let domainDefaults = Self.defaults(appLinks["defaults"])
        var entries: [Entry] = []
        var listed: [(Int, String?, JSONValue)] = []
        if let array = appLinks["details"]?.arrayElements {
            listed = array.enumerated().map { ($0.offset, nil, $0.element) }
        } else if let members = appLinks["details"]?.objectMembers {
            listed = members.lastOccurrences.enumerated().map { ($0.offset, $0.element.key, $0.element.value) }
        }
        for (index, key, value) in listed {
            guard value.objectMembers != nil else { continue }
            var apps: [String] = key.map { [$0] } ?? []
            if let appID = value["appID"]?.stringValue { apps.append(appID) }
            for app in value["appIDs"]?.arrayElements ?? [] { if let text = app.stringValue { apps.append(text) } }
            var unique: [String] = []
            for app in apps where !unique.contains(app) { unique.append(app) }
            guard !unique.isEmpty else { continue }
            let entryDefaults = Self.defaults(value["defaults"])
            var rules: [Rule] = []
            if let components = value["components"]?.arrayElements {
                for (position, component) in components.enumerated() {
                    if let rule = try Self.component(component, index: position, layers: [entryDefaults, domainDefaults]) { rules.append(rule) }
                }
            } else if let paths = value["paths"]?.arrayElements {
                for (position, path) in paths.enumerated() {
                    guard let text = path.stringValue else { continue }
                    let exclude = text.hasPrefix("NOT ")
                    rules.append(.legacy(index: position, pattern: exclude ? String(text.dropFirst(4)) : text, exclude: exclude))
                }
            }
            entries.append(Entry(index: index, apps: unique, rules: rules))
        }
        self.entries = entries
    }

    /// A defaults object whose values all have the right types, else nothing (it is skipped whole).
    private static func defaults(_ value: JSONValue?) -> JSONValue? {
        guard let value, value.objectMembers != nil, wellTyped(value) else { return nil }
        return value
    }

    private static func wellTyped(_ component: JSONValue) -> Bool {
        for key in ["/", "#", "comment"] where component[key] != nil && component[key]?.stringValue == nil { return false }
        for key in ["exclude", "caseSensitive", "percentEncoded"] where component[key] != nil && component[key]?.boolValue == nil { return false }
        if let query = component["?"], query.stringValue == nil, query.objectMembers == nil { return false }
        return true
    }

    private static func component(_ value: JSONValue, index: Int, layers: [JSONValue?]) throws(Unsupported) -> Rule? {
        guard value.objectMembers != nil, wellTyped(value) else { return nil }
        func lookup(_ key: String) -> JSONValue? { value[key] ?? layers.lazy.compactMap { $0?[key] }.first }
        if lookup("percentEncoded")?.boolValue == false { throw Unsupported(description: "percentEncoded false") }
        let path = lookup("/")?.stringValue
        let fragment = lookup("#")?.stringValue
        var query = Query.any
        if let written = lookup("?") {
            if let text = written.stringValue {
                query = .whole(text)
            } else if let members = written.objectMembers?.lastOccurrences {
                let pairs = members.compactMap { member in member.value.stringValue.map { (name: member.key, pattern: $0) } }
                // A non-string predicate voids the whole dictionary.
                query = pairs.count == members.count ? .items(pairs) : .any
            }
        }
        var patterns = [path, fragment].compactMap { $0 }
        switch query {
        case .any: break
        case .whole(let text): patterns.append(text)
        case .items(let pairs): patterns += pairs.map(\.pattern)
        }
        for pattern in patterns where pattern.contains("$(") {
            throw Unsupported(description: "a variable reference")
        }
        return .component(
            index: index, path: path, query: query, fragment: fragment, exclude: lookup("exclude")?.boolValue ?? false,
            caseSensitive: lookup("caseSensitive")?.boolValue ?? true)
    }

    /// The answer for `url` (`https://host/path?query#fragment`): per app the first decision of the
    /// first entry listing it that decides; a match for any app wins, then an exclusion.
    func answer(_ url: String) -> Answer {
        var rest = Substring(url)
        if let schemeEnd = rest.range(of: "://") { rest = rest[schemeEnd.upperBound...] }
        rest = rest.drop { $0 != "/" && $0 != "?" && $0 != "#" }
        var fragment: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        var query: String?
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        let path = rest.isEmpty ? "/" : String(rest)
        var decided = Set<String>()
        var decisions: [Answer] = []
        for entry in entries {
            let open = entry.apps.filter { !decided.contains($0) }
            guard !open.isEmpty, let hit = firstDecision(entry, path: path, query: query, fragment: fragment) else { continue }
            for app in open {
                decided.insert(app)
                decisions.append(hit)
            }
        }
        return decisions.first { $0.decision == .match } ?? decisions.first ?? Answer(decision: .none, detailsIndex: nil, ruleIndex: nil)
    }

    private func firstDecision(_ entry: Entry, path: String, query: String?, fragment: String?) -> Answer? {
        for rule in entry.rules {
            switch rule {
            case .legacy(let index, let pattern, let exclude):
                if NaiveWildcardMatcher.matchesPath(pattern: pattern, path: path) {
                    return Answer(decision: exclude ? .exclude : .match, detailsIndex: entry.index, ruleIndex: index)
                }
            case .component(let index, let pathPattern, let queryRule, let fragmentPattern, let exclude, let caseSensitive):
                if let pathPattern, !NaiveWildcardMatcher.matchesPath(pattern: pathPattern, path: path, caseSensitive: caseSensitive) { continue }
                if !Self.queryMatches(queryRule, query: query ?? "", caseSensitive: caseSensitive) { continue }
                if let fragmentPattern, !NaiveWildcardMatcher.matches(pattern: fragmentPattern, text: fragment ?? "", caseSensitive: caseSensitive) { continue }
                return Answer(decision: exclude ? .exclude : .match, detailsIndex: entry.index, ruleIndex: index)
            }
        }
        return nil
    }

    private static func queryMatches(_ rule: Query, query: String, caseSensitive: Bool) -> Bool {
        switch rule {
        case .any:
            return true
        case .whole(let pattern):
            return NaiveWildcardMatcher.matches(pattern: pattern, text: query, caseSensitive: caseSensitive)
        case .items(let constraints):
            let items = query.split(separator: "&").map { item -> (String, String) in
                guard let equals = item.firstIndex(of: "=") else { return (String(item), "") }
                return (String(item[..<equals]), String(item[item.index(after: equals)...]))
            }
            for constraint in constraints {
                let values = items.filter { caseSensitive ? $0.0 == constraint.name : $0.0.lowercased() == constraint.name.lowercased() }.map(\.1)
                let checked = values.isEmpty ? [""] : values
                if !checked.allSatisfy({ NaiveWildcardMatcher.matches(pattern: constraint.pattern, text: $0, caseSensitive: caseSensitive) }) { return false }
            }
            return true
        }
    }
}
