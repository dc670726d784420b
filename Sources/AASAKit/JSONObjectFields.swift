import OrderedJSON

/// The members of one JSON object as iOS would see them: for a repeated key only the last
/// occurrence counts (Foundation's `JSONSerialization` fills an `NSDictionary`, where a later
/// `setObject:forKey:` replaces an earlier one), kept in document order.
struct JSONObjectFields {
    let path: JSONPath
    /// Effective members in the order of their last occurrence.
    let members: [JSONMember]
    private let lookup: [String: JSONValue]

    init(_ allMembers: [JSONMember], at path: JSONPath) {
        self.path = path
        var lastIndex: [String: Int] = [:]
        for (position, member) in allMembers.enumerated() { lastIndex[member.key] = position }
        var effective: [JSONMember] = []
        var lookup: [String: JSONValue] = [:]
        for (position, member) in allMembers.enumerated() where lastIndex[member.key] == position {
            effective.append(member)
            lookup[member.key] = member.value
        }
        members = effective
        self.lookup = lookup
    }

    subscript(key: String) -> JSONValue? { lookup[key] }

    /// The keys not in `known`, each with a suggestion when it differs from a known key only by case.
    func unknownKeys(known: [String]) -> [(key: String, suggestion: String?)] {
        members.compactMap { member in
            guard !known.contains(member.key) else { return nil }
            let folded = member.key.lowercased()
            return (member.key, known.first { $0.lowercased() == folded })
        }
    }
}
