import OrderedJSON

/// Finds every object in a document that names a key twice, without recursion (an explicit stack),
/// so a deeply nested hostile document cannot exhaust the call stack.
enum DuplicateKeyScanner {
    static func findings(in root: JSONValue) -> [AASAFinding] {
        var findings: [AASAFinding] = []
        var pending: [(JSONValue, JSONPath)] = [(root, .root)]
        while let (value, path) = pending.popLast() {
            switch value {
            case .object(let members):
                var seen = Set<String>()
                var reported = Set<String>()
                for member in members {
                    if !seen.insert(member.key).inserted, reported.insert(member.key).inserted {
                        findings.append(
                            AASAFinding(
                                .duplicateKey, at: path.appending(member.key),
                                "the key \"\(member.key)\" appears more than once in this object; only the last one is used",
                                fix: "keep one \"\(member.key)\" and merge the values you need into it"))
                    }
                }
                for member in members.reversed() { pending.append((member.value, path.appending(member.key))) }
            case .array(let elements):
                for (index, element) in elements.enumerated().reversed() { pending.append((element, path.appending(index))) }
            case .null, .bool, .number, .string:
                break
            }
        }
        return findings
    }
}
