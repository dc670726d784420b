import PercentCoding

/// Routes a link to the first rule that matches it, the way the AASA file generated from the same
/// rules decides on a device; then checks the values the rule needs.
///
/// A rule matches when its path template matches and, for its query parameters: every fixed one has
/// its value in every occurrence; every "absent" one is absent or empty; every required one is
/// present and non-empty (AASA `?*`). Optional parameters do not take part in matching — exactly the
/// AASA component the rule generates. Only after a match are values checked against their types, so
/// a malformed value is a broken link of that rule (400), never a different rule or a 404.
///
/// Matching reads the query as sent, as AASA's default `percentEncoded: true` does: items split on
/// `&` and `=`, names and values not decoded, `+` a plus. So `goto=pos%74` is not `goto=post` for
/// the page, just as it is not for the device. Values are percent-decoded only to check and use them
/// (a broken escape makes the value malformed); `+` stays `+`, as the app's `URLComponents` reads it.
public struct LinkRouter: Sendable {
    public let rules: [LinkRule]
    /// Optional query parameters any rule passes on to the app URL when present and valid.
    public let passThrough: [LinkParameter]
    /// Each rule's query parameters, worked out once (routing runs for every new link).
    private let queryParameters: [[LinkParameter]]
    /// For each rule, whether the rule before it has the same path template and case rule: its
    /// path matches exactly when that one's did, so it is not matched again (a forum's seven rules
    /// on `/showthread.php` match the path once a link, not seven times).
    private let sharesPathWithPrevious: [Bool]

    public init(rules: [LinkRule], passThrough: [LinkParameter] = []) {
        self.rules = rules
        self.passThrough = passThrough
        queryParameters = rules.map(\.queryParameters)
        var shares = [Bool](repeating: false, count: rules.count)
        for index in rules.indices.dropFirst() {
            shares[index] = rules[index].path == rules[index - 1].path && rules[index].caseSensitive == rules[index - 1].caseSensitive
        }
        sharesPathWithPrevious = shares
    }

    /// The rule named `name`.
    public func rule(named name: String) -> LinkRule? { rules.first { $0.name == name } }

    /// Routes a request path and query, both as sent (percent-encoded).
    public func route(rawPath: String, rawQuery: String?) -> RouteResult {
        route(rawPath: rawPath, query: Self.queryItems(rawQuery))
    }

    /// Routes a request path as sent and its query already split by `queryItems(_:)` (a server that
    /// needs the items for more than routing splits the query once).
    public func route(rawPath: String, query: [(name: String, value: String)]) -> RouteResult {
        // Rules are reached by index, not copied out of the array: a rule is a large value, and
        // every rule whose path matches is tried for every new link.
        // The closest rule's problem is worked out only if no rule matches: most links match one,
        // after several rules that made a problem only to drop it.
        var closest: (index: Int, unmet: Int, captures: [String: String])?
        // The previous rule's path match, for a rule that shares its path.
        var previousCaptures: [String: String]?
        for index in rules.indices {
            let caseSensitive = rules[index].caseSensitive
            if !sharesPathWithPrevious[index] { previousCaptures = rules[index].path.match(rawPath: rawPath, caseSensitive: caseSensitive) }
            guard let rawCaptures = previousCaptures else { continue }
            let unmet = unmetConstraints(queryParameters: queryParameters[index], caseSensitive: caseSensitive, in: query, describing: false).count
            if unmet > 0 {
                if closest == nil || unmet < closest!.unmet {
                    closest = (index, unmet, rawCaptures)
                }
                continue
            }
            return check(rules[index], rawCaptures: rawCaptures, query: query)
        }
        guard let closest else { return .noRule }
        let rule = rules[closest.index]
        let unmet = unmetConstraints(queryParameters: queryParameters[closest.index], caseSensitive: rule.caseSensitive, in: query, describing: true)
        // The rule has unmet constraints (that is how it became the closest), so `first` is there.
        return .badLink(rule: rule, problem: unmet.first ?? .missing(parameter: "?"), captures: closest.captures)
    }

    /// Query items as sent (not decoded); an item without `=` has an empty value, as AASA reads it.
    /// Split as `QueryString` splits with `.asWritten` (on the byte `&`, empty pieces skipped, the
    /// name ending at the first `=`), over the query's contiguous bytes: this runs for every new link.
    public static func queryItems(_ rawQuery: String?) -> [(name: String, value: String)] {
        guard let rawQuery, !rawQuery.isEmpty else { return [] }
        return rawQuery.withContiguousUTF8 { bytes in
            // Room for every item at once (one more than the `&`s): growing from empty reallocated
            // the list for the second and third item of nearly every link.
            var separators = 0
            for byte in bytes where byte == UInt8(ascii: "&") { separators += 1 }
            var items: [(name: String, value: String)] = []
            items.reserveCapacity(separators + 1)
            var start = 0
            while start < bytes.count {
                var end = start
                var equals = -1
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                    if equals < 0, bytes[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                if end > start {
                    // Cut at ASCII bytes, so every piece of the valid UTF-8 text is valid UTF-8 itself.
                    let nameEnd = equals < 0 ? end : equals
                    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]), as: UTF8.self)
                    let value = equals < 0 ? "" : String(decoding: UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), as: UTF8.self)
                    items.append((name, value))
                }
                start = end + 1
            }
            return items
        }
    }

    /// Whether a query item's name is `name` (without case for case-insensitive rules).
    /// Takes the item's name alone: passing the whole item copied (retained and released) its
    /// value too, for every pair of rule parameter and query item a new link is routed through.
    private static func named(_ itemName: String, _ name: String, caseSensitive: Bool) -> Bool {
        caseSensitive ? itemName == name : itemName.lowercased() == name.lowercased()
    }

    /// The AASA-level constraints the query does not meet: how many, and when `describing`, the
    /// first in parameter order as a problem. Runs for every rule whose path matches a new link, so
    /// it looks at the items in place, copying nothing.
    private func unmetConstraints(
        queryParameters: [LinkParameter], caseSensitive: Bool, in query: [(name: String, value: String)], describing: Bool
    ) -> (first: LinkProblem?, count: Int) {
        var first: LinkProblem?
        var count = 0
        func unmet(_ problem: @autoclosure () -> LinkProblem) {
            if describing, first == nil { first = problem() }
            count += 1
        }
        for index in queryParameters.indices {
            let name = queryParameters[index].name
            switch queryParameters[index].constraint {
            case .fixed(let expected):
                var found = false
                var allEqual = true
                for index in query.indices where Self.named(query[index].name, name, caseSensitive: caseSensitive) {
                    found = true
                    let value = query[index].value
                    if caseSensitive ? value != expected : value.lowercased() != expected.lowercased() { allEqual = false }
                }
                if !found {
                    unmet(.missing(parameter: name))
                } else if !allEqual {
                    unmet(.wrongValue(parameter: name, expected: expected))
                }
            case .absent:
                if query.indices.contains(where: { Self.named(query[$0].name, name, caseSensitive: caseSensitive) && !query[$0].value.isEmpty }) {
                    unmet(.unexpected(parameter: name))
                }
            case .typed(_, let required):
                if required {
                    var found = false
                    var anyEmpty = false
                    for index in query.indices where Self.named(query[index].name, name, caseSensitive: caseSensitive) {
                        found = true
                        if query[index].value.isEmpty { anyEmpty = true }
                    }
                    if !found || anyEmpty { unmet(.missing(parameter: name)) }
                }
            }
        }
        return (first, count)
    }

    /// Type checks after a match, and the app URL.
    private func check(_ rule: LinkRule, rawCaptures: [String: String], query: [(name: String, value: String)]) -> RouteResult {
        // Sized once for every parameter: growing from empty copied the list on the second insert.
        var values = LinkValues(minimumCapacity: rule.parameters.count)
        for parameter in rule.parameters {
            switch parameter.location {
            case .path:
                guard let raw = rawCaptures[parameter.name] else {
                    return .badLink(rule: rule, problem: .missing(parameter: parameter.name), captures: rawCaptures)
                }
                guard let decoded = PercentCoding.decode(raw).validText, let type = parameter.type, type.accepts(decoded) else {
                    return .badLink(rule: rule, problem: .malformed(parameter: parameter.name, expected: parameter.type ?? .text), captures: rawCaptures)
                }
                values[parameter.name] = decoded
            case .query:
                // The first non-empty value; another, different one makes the link ambiguous.
                var first: String?
                var repeated = false
                for item in query where !item.value.isEmpty && Self.named(item.name, parameter.name, caseSensitive: rule.caseSensitive) {
                    if let first { repeated = repeated || item.value != first } else { first = item.value }
                }
                guard let first else { continue }
                if repeated { return .badLink(rule: rule, problem: .repeated(parameter: parameter.name), captures: rawCaptures) }
                if case .fixed(let value) = parameter.constraint {
                    values[parameter.name] = value
                    continue
                }
                guard let decoded = PercentCoding.decode(first).validText, parameter.type?.accepts(decoded) ?? true else {
                    return .badLink(rule: rule, problem: .malformed(parameter: parameter.name, expected: parameter.type ?? .text), captures: rawCaptures)
                }
                values[parameter.name] = decoded
            }
        }
        var carried: [PassThroughValue] = []
        for item in query {
            guard let parameter = passThrough.first(where: { $0.name == item.name }), rule.parameter(item.name) == nil,
                !item.value.isEmpty, let value = PercentCoding.decode(item.value).validText, parameter.type?.accepts(value) ?? true,
                !carried.contains(where: { $0.name == item.name })
            else { continue }
            carried.append(PassThroughValue(name: item.name, value: value))
        }
        guard let appURL = rule.appURL.expand(values, extraQuery: carried.map { ($0.name, $0.value) }) else {
            // The config check guarantees required placeholders have required parameters.
            return .badLink(
                rule: rule, problem: .missing(parameter: rule.appURL.requiredPlaceholders.first { values[$0] == nil } ?? "?"), captures: rawCaptures)
        }
        return .page(LinkMatch(rule: rule, values: values, passThrough: carried, appURL: appURL, captures: rawCaptures))
    }
}
