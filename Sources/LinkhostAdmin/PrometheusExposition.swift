/// Writes metrics in Prometheus's text exposition format (version 0.0.4): `# HELP` and `# TYPE`
/// before each family, label values escaped (`\`, `"`, newline), series in a stable order.
struct PrometheusExposition {
    private(set) var text = ""

    enum Kind: String {
        case counter, gauge, histogram
    }

    /// Starts a family.
    mutating func family(_ name: String, _ kind: Kind, help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
    }

    /// One sample.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Double) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.format(value) + "\n"
    }

    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Int) {
        sample(name, labels, Double(value))
    }

    static func escape(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Whole numbers without a decimal point; `+Inf` as Prometheus spells it.
    static func format(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
