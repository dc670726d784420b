/// The obvious backtracking reading of AASA wildcards, written independently of the library as
/// the reference for property tests. Exponential in the worst case: only for short inputs.
enum NaiveWildcardMatcher {
    static func matches(pattern: String, text: String, caseSensitive: Bool = true) -> Bool {
        let p = Array(caseSensitive ? pattern : pattern.lowercased())
        let t = Array(caseSensitive ? text : text.lowercased())
        return matches(p[...], t[...])
    }

    /// Path semantics from spec §3.10, stated directly: trim slashes on both sides, and let a
    /// pattern ending in "/*" also match without that tail.
    static func matchesPath(pattern: String, path: String, caseSensitive: Bool = true) -> Bool {
        let trimmedPattern = trimSlashes(pattern)
        let trimmedPath = trimSlashes(path)
        if matches(pattern: trimmedPattern, text: trimmedPath, caseSensitive: caseSensitive) { return true }
        // "**" means "*", so "/x/**" ends in "/*" too.
        var collapsed = trimmedPattern
        while collapsed.hasSuffix("**") { collapsed.removeLast() }
        if collapsed.hasSuffix("/*") {
            return matches(pattern: String(collapsed.dropLast(2)), text: trimmedPath, caseSensitive: caseSensitive)
        }
        return false
    }

    private static func trimSlashes(_ text: String) -> String {
        var characters = Substring(text)
        while characters.first == "/" { characters = characters.dropFirst() }
        while characters.last == "/" { characters = characters.dropLast() }
        return String(characters)
    }

    private static func matches(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case "*":
            var rest = text
            while true {
                if matches(pattern.dropFirst(), rest) { return true }
                if rest.isEmpty { return false }
                rest = rest.dropFirst()
            }
        case "?":
            return !text.isEmpty && matches(pattern.dropFirst(), text.dropFirst())
        default:
            return text.first == first && matches(pattern.dropFirst(), text.dropFirst())
        }
    }
}
