/// Checks and normalises host names written in a config file.
enum HostName {
    /// The normalised host (lower case, no trailing dot), or a problem and its fix.
    static func validate(_ raw: String) -> Result<String, HostNameProblem> {
        let trimmed = raw.trimmingCharacters(in: " \t")
        if trimmed.contains("://") {
            let bare = trimmed.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? ""
            return .failure(HostNameProblem(problem: "\"\(raw)\" is a URL, not a host name", fix: "write only the host, e.g. \"\(bare)\""))
        }
        if let slash = trimmed.firstIndex(of: "/") {
            return .failure(HostNameProblem(problem: "\"\(raw)\" has a path", fix: "write only the host, e.g. \"\(trimmed[..<slash])\""))
        }
        if trimmed.contains(":") {
            let host = trimmed.split(separator: ":").first.map(String.init) ?? ""
            return .failure(HostNameProblem(problem: "\"\(raw)\" has a port", fix: "write only the host (\"\(host)\"); the port does not pick the site"))
        }
        var host = trimmed.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.first == "*" { labels.removeFirst() }
        guard !host.isEmpty, host.utf8.count <= 253, !labels.isEmpty else {
            return .failure(HostNameProblem(problem: "\"\(raw)\" is not a host name", fix: "write a host such as \"example.com\""))
        }
        for label in labels {
            let bytes = Array(label.utf8)
            let valid =
                !bytes.isEmpty && bytes.count <= 63 && bytes.first != UInt8(ascii: "-") && bytes.last != UInt8(ascii: "-")
                && bytes.allSatisfy {
                    ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                }
            if !valid {
                if label.unicodeScalars.contains(where: { !$0.isASCII }) {
                    return .failure(
                        HostNameProblem(
                            problem: "\"\(raw)\" is an internationalised name", fix: "write it in Punycode (xn--…), as Apple requires for associated domains"))
                }
                if label == "*" {
                    return .failure(
                        HostNameProblem(
                            problem: "\"\(raw)\" has a wildcard that is not the first label", fix: "only a leading \"*.\" is allowed, e.g. \"*.example.com\""))
                }
                return .failure(
                    HostNameProblem(
                        problem: "\"\(raw)\" is not a valid host name (label \"\(label)\")",
                        fix: "use letters, digits and hyphens, dots between labels, e.g. \"links.example.com\""))
            }
        }
        return .success(host)
    }
}

/// Why a configured host name cannot be used.
struct HostNameProblem: Error {
    let problem: String
    let fix: String
}

extension String {
    func trimmingCharacters(in characters: String) -> String {
        let set = Set(characters)
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
