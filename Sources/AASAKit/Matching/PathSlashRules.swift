/// The slash leniency `swcutil` shows for path patterns, beyond the glob Apple documents.
///
/// Both the pattern and the URL path lose their leading and trailing runs of `/`, so `abc`, `/abc`
/// and `//abc/` are one pattern, `/buy` ≡ `/buy/` ≡ `/buy//`, and an empty path reads as `/`.
/// A pattern that then ends in `/*` may also stop before that slash (`/buy/*` matches `/buy`), but
/// no slash is ever added to the URL (`/id/????` does not match `/id/481`).
enum PathSlashRules {
    /// The pattern tokens without leading or trailing literal slashes.
    static func trimmed(_ tokens: [PatternToken]) -> [PatternToken] {
        var slice = tokens[...]
        while slice.first == .scalar("/") { slice = slice.dropFirst() }
        while slice.last == .scalar("/") { slice = slice.dropLast() }
        return Array(slice)
    }

    /// The URL path's scalars without leading or trailing slashes.
    static func trimmed(_ path: String) -> [Unicode.Scalar] {
        let scalars = Array(path.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, scalars[start] == "/" { start += 1 }
        while end > start, scalars[end - 1] == "/" { end -= 1 }
        return Array(scalars[start..<end])
    }

    /// Index of the final `/` of a trimmed pattern ending in `/*`, from which the rest is optional.
    static func optionalTailStart(of tokens: [PatternToken]) -> Int? {
        guard tokens.count >= 2, tokens[tokens.count - 1] == .anyRun, tokens[tokens.count - 2] == .scalar("/") else { return nil }
        return tokens.count - 2
    }
}
