import OrderedJSON

/// Reads typed settings out of one JSON object of a config file, recording a problem (with its
/// path and a fix) for each missing, mistyped, out-of-range or unknown key instead of stopping.
///
/// Keys that start with `//` are comments and are skipped, since JSON itself has none.
struct ConfigObjectReader {
    let members: [JSONMember]
    let path: JSONPath
    let problems: ConfigurationProblems

    /// Reads `value` as an object whose keys must be among `allowedKeys`; `nil` (with a problem
    /// recorded) when it is not an object.
    init?(_ value: JSONValue, at path: JSONPath, problems: ConfigurationProblems, what: String, allowedKeys: [String]) {
        guard case .object(let members) = value else {
            problems.add(path, "\(what) must be a JSON object, found \(value.kindDescription)", fix: "write \(what) as { \"key\": value, ... }")
            return nil
        }
        self.members = members
        self.path = path
        self.problems = problems
        for member in members where !member.key.hasPrefix("//") && !allowedKeys.contains(member.key) {
            let fix: String
            if let suggestion = Self.closest(to: member.key, among: allowedKeys) {
                fix = "did you mean \"\(suggestion)\"? Allowed keys: \(allowedKeys.joined(separator: ", "))"
            } else {
                fix = "remove it; allowed keys here are \(allowedKeys.joined(separator: ", "))"
            }
            problems.add(path.appending(member.key), "unknown key \"\(member.key)\" in \(what)", fix: fix)
        }
    }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    func value(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// A string; `nil` when absent (recording a problem if `required`) or not a string.
    func string(_ key: String, required: Bool = false, fix: String) -> String? {
        guard let value = value(key) else {
            if required { problems.add(path.appending(key), "\"\(key)\" is missing", fix: fix) }
            return nil
        }
        guard case .string(let text) = value else {
            problems.add(path.appending(key), "\"\(key)\" must be a string, found \(value.kindDescription)", fix: fix)
            return nil
        }
        return text
    }

    /// A whole number within `range`; `defaultValue` when absent or unusable (a problem is recorded).
    func integer(_ key: String, in range: ClosedRange<Int>, default defaultValue: Int, meaning: String) -> Int {
        guard let value = value(key) else { return defaultValue }
        guard case .number(let number) = value, let integer = number.intValue else {
            problems.add(
                path.appending(key),
                "\"\(key)\" must be a whole number (\(meaning)), found \(value.kindDescription == "a number" ? "\(value.numberValue!)" : value.kindDescription)",
                fix: "use a whole number from \(range.lowerBound) to \(range.upperBound)")
            return defaultValue
        }
        guard range.contains(integer) else {
            problems.add(
                path.appending(key), "\(integer) is outside \(range.lowerBound)...\(range.upperBound) (\(meaning))",
                fix: "use a whole number from \(range.lowerBound) to \(range.upperBound)")
            return defaultValue
        }
        return integer
    }

    /// A Boolean; `defaultValue` when absent or mistyped.
    func bool(_ key: String, default defaultValue: Bool) -> Bool {
        guard let value = value(key) else { return defaultValue }
        guard case .bool(let flag) = value else {
            problems.add(path.appending(key), "\"\(key)\" must be true or false, found \(value.kindDescription)", fix: "write true or false without quotes")
            return defaultValue
        }
        return flag
    }

    /// An array of strings; `nil` when absent (problem if `required`) or not all strings.
    func strings(_ key: String, required: Bool = false, nonEmpty: Bool = false, fix: String) -> [(text: String, path: JSONPath)]? {
        guard let value = value(key) else {
            if required { problems.add(path.appending(key), "\"\(key)\" is missing", fix: fix) }
            return nil
        }
        guard case .array(let elements) = value else {
            problems.add(path.appending(key), "\"\(key)\" must be an array of strings, found \(value.kindDescription)", fix: fix)
            return nil
        }
        if nonEmpty && elements.isEmpty {
            problems.add(path.appending(key), "\"\(key)\" is empty", fix: fix)
            return nil
        }
        var result: [(text: String, path: JSONPath)] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                problems.add(path.appending(key).appending(index), "must be a string, found \(element.kindDescription)", fix: fix)
                return nil
            }
            result.append((text, path.appending(key).appending(index)))
        }
        return result
    }

    /// A nested object reader; `nil` when absent (problem if `required`) or not an object.
    func object(_ key: String, what: String, allowedKeys: [String], required: Bool = false) -> ConfigObjectReader? {
        guard let value = value(key) else {
            if required { problems.add(path.appending(key), "\(what) (\"\(key)\") is missing", fix: "add \"\(key)\": { ... }") }
            return nil
        }
        return ConfigObjectReader(value, at: path.appending(key), problems: problems, what: what, allowedKeys: allowedKeys)
    }

    /// The allowed key closest to `key` by edit distance (case-insensitive), if it is close enough
    /// to be a likely typo.
    static func closest(to key: String, among candidates: [String]) -> String? {
        let lowered = key.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(Array(lowered), Array(candidate.lowercased()))
            if distance <= max(1, min(3, candidate.count / 3)), distance < (best?.1 ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
