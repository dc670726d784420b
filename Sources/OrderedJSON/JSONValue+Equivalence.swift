extension JSONValue {
    /// Whether two documents say the same thing to a reader that builds dictionaries (as Foundation's
    /// `JSONSerialization` does): object members compared by key whatever their order (a repeated
    /// key as its last occurrence), numbers by value (`1.0` is `1`), arrays element by element in
    /// order, strings exactly. Layout and key order, which `==` sees, do not count here.
    public func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.string(let left), .string(let right)): return left == right
        case (.number(let left), .number(let right)):
            return left.literal == right.literal || left.doubleValue == right.doubleValue
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let left), .object(let right)):
            let leftMembers = left.lastOccurrences
            let rightMembers = right.lastOccurrences
            guard leftMembers.count == rightMembers.count else { return false }
            var rightByKey: [String: JSONValue] = [:]
            for member in rightMembers { rightByKey[member.key] = member.value }
            return leftMembers.allSatisfy { member in rightByKey[member.key].map { member.value.isEquivalent(to: $0) } ?? false }
        default:
            return false
        }
    }

    /// The value at `path` (object keys read as their last occurrence), `nil` when the document has
    /// nothing there.
    public func value(at path: JSONPath) -> JSONValue? {
        var current = self
        for step in path.steps {
            switch step {
            case .key(let key):
                guard let next = current[key] else { return nil }
                current = next
            case .index(let index):
                guard let elements = current.arrayElements, elements.indices.contains(index) else { return nil }
                current = elements[index]
            }
        }
        return current
    }
}
