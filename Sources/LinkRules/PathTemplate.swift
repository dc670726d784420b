import PercentCoding

/// A rule's path: literal text with `{name}` placeholders, e.g. `/familymember/{name}/`.
///
/// It matches request paths exactly the way its AASA pattern (each placeholder becomes `?*`)
/// matches them on a device, so the fallback page and the app always agree on which rule a link
/// belongs to:
/// - comparison is on the path as sent (percent-encoded), as AASA's default `percentEncoded: true`;
/// - a placeholder takes one or more characters of any kind, `/` included, as `?*` does; its type
///   then decides whether the value is acceptable (a bad value is a broken link, not a 404);
/// - a run of leading slashes counts as one and trailing slashes do not count, on both sides
///   (as `swcutil` reads AASA paths), and an empty path is `/`.
public struct PathTemplate: Sendable, Equatable, CustomStringConvertible {
    enum Piece: Sendable, Equatable {
        case literal([UInt8])
        case placeholder(String)
    }

    /// The template as written in the config.
    public let text: String
    let pieces: [Piece]

    /// Parses a template; `nil` with a reason when it is not usable.
    public static func parse(_ text: String) -> Result<PathTemplate, PathTemplateError> {
        guard text.hasPrefix("/") else { return .failure(PathTemplateError("a path must start with '/'")) }
        if text.contains("?") || text.contains("#") {
            return .failure(PathTemplateError("a path must not contain '?' or '#'; declare query parameters under \"params\""))
        }
        if text.contains("*") {
            return .failure(PathTemplateError("'*' is not allowed; name the variable part with a {placeholder}"))
        }
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var rest = Substring(String(decoding: normalized(Array(text.utf8)), as: UTF8.self))
        while let open = rest.firstIndex(of: "{") {
            literal += Array(rest[..<open].utf8)
            guard let close = rest[open...].firstIndex(of: "}") else {
                return .failure(PathTemplateError("a '{' has no matching '}'"))
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard LinkRuleNames.isValidParameterName(name) else {
                return .failure(PathTemplateError("\"{\(name)}\" is not a valid placeholder; use letters, digits and '_'"))
            }
            if case .placeholder = pieces.last, literal.isEmpty {
                return .failure(PathTemplateError("two placeholders must be separated by literal text"))
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = []
            pieces.append(.placeholder(name))
            rest = rest[rest.index(after: close)...]
        }
        if rest.contains("}") { return .failure(PathTemplateError("a '}' has no matching '{'")) }
        literal += Array(rest.utf8)
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return .success(PathTemplate(text: text, pieces: pieces))
    }

    private init(text: String, pieces: [Piece]) {
        self.text = text
        self.pieces = pieces
    }

    /// Names of the placeholders, in order.
    public var placeholderNames: [String] {
        pieces.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// The AASA `/` pattern: the template with every placeholder as `?*`.
    public var aasaPattern: String {
        var pattern = ""
        for piece in pieces {
            switch piece {
            case .literal(let bytes): pattern += String(decoding: bytes, as: UTF8.self)
            case .placeholder: pattern += "?*"
            }
        }
        return pattern.isEmpty ? "/" : pattern
    }

    /// The placeholder values (still percent-encoded) when `rawPath` matches, else `nil`.
    public func match(rawPath: String, caseSensitive: Bool = true) -> [String: String]? {
        // A path without placeholders (most rules: `/showthread.php`, `/addfriend`) is one literal:
        // compared in place, without copying the path or making a dictionary, as every rule whose
        // query may match is tried for every new link.
        if pieces.count == 1, case .literal(let literal) = pieces[0] {
            return rawPath.withContiguousUTF8 { bytes in Self.normalizedEquals(bytes, literal, caseSensitive: caseSensitive) } ? [:] : nil
        }
        return matchCountingSteps(rawPath: rawPath, caseSensitive: caseSensitive).captures
    }

    /// `match(rawPath:caseSensitive:)` without its shortcut for literal templates, and how many
    /// bytes it compared to decide. The routing fuzz target and the tests hold the count to the
    /// path's length times the template's literal bytes, so no path makes matching superlinear.
    package func matchCountingSteps(rawPath: String, caseSensitive: Bool = true) -> (captures: [String: String]?, steps: Int) {
        let original = Self.normalized(Array(rawPath.utf8))
        var path = original
        var pieces = self.pieces
        if !caseSensitive {
            path = path.map(Self.lowercased)
            pieces = pieces.map { if case .literal(let bytes) = $0 { .literal(bytes.map(Self.lowercased)) } else { $0 } }
        }
        var captures: [String: String] = [:]
        var steps = 0
        guard Self.match(pieces, path, &captures, original: original, steps: &steps) else { return (nil, steps) }
        return (captures, steps)
    }

    /// The bytes of the template's literal text, which bound the steps of a match per path byte.
    package var literalByteCount: Int {
        pieces.reduce(0) { if case .literal(let bytes) = $1 { $0 + bytes.count } else { $0 } }
    }

    /// The path a match was made from, rebuilt from its `captures` (as sent) with the placeholders in
    /// `replaced` swapped for the given text. Used to keep secrets out of logs without matching again.
    public func rawPath(captures: [String: String], replacing replaced: [String: String]) -> String {
        var path = ""
        for piece in pieces {
            switch piece {
            case .literal(let bytes): path += String(decoding: bytes, as: UTF8.self)
            case .placeholder(let name): path += replaced[name] ?? captures[name] ?? ""
            }
        }
        return path.isEmpty ? "/" : path
    }

    /// Builds a path from decoded values (percent-encoding each); `nil` if one is missing.
    public func expand(_ values: [String: String]) -> String? {
        var path = TextBuilder()
        guard expand(LinkValues(values), into: &path) else { return nil }
        return path.text
    }

    /// Appends the path built from decoded `values` (see `expand(_:)`); false, having appended part
    /// of it, if a value is missing.
    public func expand(_ values: LinkValues, into path: inout TextBuilder) -> Bool {
        var empty = true
        for piece in pieces {
            switch piece {
            case .literal(let bytes):
                path.append(utf8: bytes)
                empty = empty && bytes.isEmpty
            case .placeholder(let name):
                guard let value = values[name], !value.isEmpty else { return false }
                path.append(percentEncoding: value)
                empty = false
            }
        }
        if empty { path.append(ascii: UInt8(ascii: "/")) }
        return true
    }

    public var description: String { text }

    // MARK: matching

    /// Leftmost-shortest matching: each placeholder, from the left, takes the fewest bytes (at least
    /// one) with which the rest still matches; values come from `original` so case-insensitive
    /// matching keeps their case, and a name used twice keeps its first value.
    ///
    /// No backtracking: a leading literal must open the path and a trailing one close it; between
    /// them each literal is taken at its first place after the placeholder before it. A later place
    /// never helps, because the placeholder after the literal can take the bytes in between as well,
    /// so the first place matches whenever any does. Each literal is looked for once, so the work is
    /// at most the path's length times the literal bytes (a backtracking version was quadratic with
    /// two placeholders and a literal after them, cubic with three).
    private static func match(_ pieces: [Piece], _ path: [UInt8], _ captures: inout [String: String], original: [UInt8], steps: inout Int) -> Bool {
        var start = 0
        var end = path.count
        var middle = pieces[...]
        if case .literal(let opening)? = middle.first {
            steps += opening.count
            guard path.starts(with: opening) else { return false }
            start = opening.count
            middle = middle.dropFirst()
        }
        if case .literal(let closing)? = middle.last {
            steps += closing.count
            guard end - start >= closing.count, path[(end - closing.count)...].elementsEqual(closing) else { return false }
            end -= closing.count
            middle = middle.dropLast()
        }
        // What is left alternates placeholder, literal, …, placeholder (the parser never puts two
        // placeholders side by side), or is empty.
        var pending: String?
        for piece in middle {
            switch piece {
            case .placeholder(let name):
                pending = name
            case .literal(let literal):
                guard let found = firstPlace(of: literal, in: path, from: start + 1, before: end, steps: &steps), let name = pending else { return false }
                if captures[name] == nil { captures[name] = String(decoding: original[start..<found], as: UTF8.self) }
                start = found + literal.count
                pending = nil
            }
        }
        guard let name = pending else { return start == end }
        guard start < end else { return false }
        if captures[name] == nil { captures[name] = String(decoding: original[start..<end], as: UTF8.self) }
        return true
    }

    /// Where `literal` first lies wholly within `path[from..<before]`, comparing byte by byte.
    private static func firstPlace(of literal: [UInt8], in path: [UInt8], from: Int, before: Int, steps: inout Int) -> Int? {
        guard !literal.isEmpty, before - from >= literal.count else { return nil }
        for place in from...(before - literal.count) {
            var offset = 0
            while offset < literal.count {
                steps += 1
                guard path[place + offset] == literal[offset] else { break }
                offset += 1
            }
            if offset == literal.count { return place }
        }
        return nil
    }

    /// Whether `bytes`, normalized (see `normalized`), are `literal` (itself normalized).
    private static func normalizedEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: [UInt8], caseSensitive: Bool) -> Bool {
        var start = 0
        while start + 1 < bytes.count, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") { start += 1 }
        var end = bytes.count
        while end > start + 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        if start == end { return literal == [UInt8(ascii: "/")] }
        guard end - start == literal.count else { return false }
        for offset in 0..<literal.count {
            let byte = bytes[start + offset]
            if (caseSensitive ? byte : lowercased(byte)) != (caseSensitive ? literal[offset] : lowercased(literal[offset])) { return false }
        }
        return true
    }

    /// One leading slash, no trailing slashes, `/` when empty.
    static func normalized(_ bytes: [UInt8]) -> [UInt8] {
        var start = bytes.startIndex
        while start + 1 < bytes.endIndex, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") { start += 1 }
        var end = bytes.endIndex
        while end > start + 1, bytes[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let trimmed = Array(bytes[start..<end])
        return trimmed.isEmpty ? [UInt8(ascii: "/")] : trimmed
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}

/// Why a path template cannot be used.
public struct PathTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
