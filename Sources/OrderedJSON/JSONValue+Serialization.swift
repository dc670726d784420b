extension JSONValue {
    /// How `serialized(_:)` lays a document out.
    public enum Layout: Sendable {
        /// One member or element per line, indented by the given number of spaces.
        case pretty(indent: Int)
        /// No whitespace at all.
        case compact
    }

    /// The document as UTF-8 JSON, the project's one JSON writer. `/` and non-ASCII text are written
    /// as they are (no `\/`, no `\uXXXX`), `"`, `\` and control characters are escaped; object
    /// members keep their order. U+2028 and U+2029 stay as they are: JSON allows them, and no output
    /// of linkhost is embedded in a `<script>` (ES2019 allows them in string literals anyway).
    public func serialized(_ layout: Layout = .pretty(indent: 4)) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(into: &output, layout: layout, level: 0)
        return output
    }

    /// The document as a JSON string (see `serialized(_:)`).
    public func jsonText(_ layout: Layout = .pretty(indent: 4)) -> String {
        String(decoding: serialized(layout), as: UTF8.self)
    }

    private func write(into output: inout [UInt8], layout: Layout, level: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.literal.utf8)
        case .string(let string): Self.writeString(string, into: &output)
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(into: &output, layout: layout, level: level + 1)
                element.write(into: &output, layout: layout, level: level + 1)
            }
            Self.newline(into: &output, layout: layout, level: level)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(into: &output, layout: layout, level: level + 1)
                Self.writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if case .pretty = layout { output.append(UInt8(ascii: " ")) }
                member.value.write(into: &output, layout: layout, level: level + 1)
            }
            Self.newline(into: &output, layout: layout, level: level)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(into output: inout [UInt8], layout: Layout, level: Int) {
        guard case .pretty(let indent) = layout else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    private static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            case 0x08: output.append(contentsOf: "\\b".utf8)
            case 0x0C: output.append(contentsOf: "\\f".utf8)
            case 0x00..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
