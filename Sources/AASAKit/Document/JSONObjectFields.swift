import OrderedJSON

/// The members of one JSON object as iOS would see them: for a repeated key only the last
/// occurrence counts (the rule is documented on `JSONParser.DuplicateKeyPolicy`), kept in document
/// order, with a lookup table because the reader asks for many keys.
struct JSONObjectFields {
    let path: JSONPath
    /// Effective members in the order of their last occurrence.
    let members: [JSONMember]
    private let lookup: [String: JSONValue]

    init(_ allMembers: [JSONMember], at path: JSONPath) {
        self.path = path
        members = allMembers.lastOccurrences
        lookup = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
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
