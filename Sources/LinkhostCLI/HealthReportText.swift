import OrderedJSON

/// The health report as text for a person: its JSON as an indented outline, key by key in the
/// report's order — a list of values on one line, a list of objects as `-` items, `none` for null
/// and empty lists. Every field of the report shows, so the text never falls behind the JSON.
struct HealthReportText {
    let text: String

    init(_ report: JSONValue) {
        var lines: [String] = []
        Self.members(report.objectMembers ?? [], indent: "", into: &lines)
        text = lines.map { $0 + "\n" }.joined()
    }

    private static func members(_ members: [JSONMember], indent: String, into lines: inout [String]) {
        for member in members { entry(member.key, member.value, indent: indent, into: &lines) }
    }

    private static func entry(_ key: String, _ value: JSONValue, indent: String, into lines: inout [String]) {
        switch value {
        case .object(let members) where !members.isEmpty:
            lines.append("\(indent)\(key):")
            Self.members(members, indent: indent + "  ", into: &lines)
        case .array(let elements) where elements.contains(where: { $0.objectMembers?.isEmpty == false || $0.arrayElements != nil }):
            lines.append("\(indent)\(key):")
            for element in elements {
                guard let members = element.objectMembers, !members.isEmpty else {
                    lines.append("\(indent)  - \(scalar(element))")
                    continue
                }
                // The first member on the item's line, the rest under it.
                var item: [String] = []
                Self.members(members, indent: indent + "    ", into: &item)
                if let first = item.first { item[0] = indent + "  - " + first.dropFirst(indent.count + 4) }
                lines += item
            }
        default:
            lines.append("\(indent)\(key): \(scalar(value))")
        }
    }

    /// A value on one line.
    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: "none"
        case .bool(let flag): flag ? "yes" : "no"
        case .number(let number): number.description
        case .string(let text): text.isEmpty ? "\"\"" : text
        case .array(let elements): elements.isEmpty ? "none" : elements.map(scalar).joined(separator: ", ")
        case .object: "none"
        }
    }
}
