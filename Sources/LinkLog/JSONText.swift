/// JSON text written by hand: string escaping for the `params` column and the JSON output format.
/// Small enough that a JSON library would be more code to call than this is to read.
enum JSONText {
    /// `text` as a JSON string literal, quotes included. Control characters are escaped; everything
    /// else (including non-ASCII) is written as UTF-8.
    static func quoted(_ text: String) -> String {
        var output = "\""
        output.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
        return output
    }

    /// A JSON object of string members in the given order, the first of each repeated name kept;
    /// `nil` for no members so the column stays NULL rather than holding `{}`.
    static func object(_ members: [(name: String, value: String)]) -> String? {
        guard !members.isEmpty else { return nil }
        var output = "{"
        var written: [String] = []
        for (name, value) in members where !written.contains(name) {
            if !written.isEmpty { output += "," }
            output += quoted(name) + ":" + quoted(value)
            written.append(name)
        }
        return output + "}"
    }
}
