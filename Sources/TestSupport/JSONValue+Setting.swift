import OrderedJSON

extension JSONValue {
    /// This document with the value at `keys` (object keys, outermost first) replaced, or added
    /// with the objects leading to it: how tests vary one setting of a whole config file.
    public func setting(_ keys: ArraySlice<String>, to value: JSONValue) -> JSONValue {
        guard let key = keys.first else { return value }
        var members = objectMembers ?? []
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = members[index].value.setting(keys.dropFirst(), to: value)
        } else {
            members.append(JSONMember(key, JSONValue.object([]).setting(keys.dropFirst(), to: value)))
        }
        return .object(members)
    }

    /// `setting(_:to:)` with a dotted path such as `"server.limits.threads"`.
    public func setting(_ dottedPath: String, to value: JSONValue) -> JSONValue {
        setting(ArraySlice(dottedPath.split(separator: ".").map(String.init)), to: value)
    }
}
