extension JSONValue {
    /// Where an object names a key more than once (a document parsed with `.keepAll`): the path of
    /// each such key, once per object and key, in document order. Walks with an explicit stack, so
    /// a deeply nested hostile document cannot exhaust the call stack. Linters of every file format
    /// read with `.keepAll` report these in their own words.
    public func repeatedKeyPaths() -> [JSONPath] {
        var found: [JSONPath] = []
        var pending: [(JSONValue, JSONPath)] = [(self, .root)]
        while let (value, path) = pending.popLast() {
            switch value {
            case .object(let members):
                var seen = Set<String>()
                var reported = Set<String>()
                for member in members where !seen.insert(member.key).inserted && reported.insert(member.key).inserted {
                    found.append(path.appending(member.key))
                }
                for member in members.reversed() { pending.append((member.value, path.appending(member.key))) }
            case .array(let elements):
                for (index, element) in elements.enumerated().reversed() { pending.append((element, path.appending(index))) }
            case .null, .bool, .number, .string:
                break
            }
        }
        return found
    }
}
