import PercentCoding

extension AppURLTemplate {
    /// What a custom-scheme URL says when read through this template: the decoded placeholder
    /// values, and the query items the template does not name (UTM and pass-through parameters).
    public struct Reading: Sendable, Equatable {
        public var values: [String: String]
        public var otherQuery: [PassThroughValue]
    }

    /// Reads `url` (`rowhni://addfriend?code=ABC123`) as an instance of this template: the inverse of
    /// `expand`, so an app that was opened by its custom scheme can report the link like a web one.
    /// `nil` when the URL does not have the template's shape. A placeholder before the query takes
    /// one or more characters within a path segment; the scheme is compared without case.
    public func read(_ url: String) -> Reading? {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var urlQuery: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            urlQuery = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        guard let colon = rest.firstIndex(of: ":"), rest[..<colon].lowercased() == scheme else { return nil }
        var values: [String: String] = [:]
        guard let baseColon = base.firstIndex(of: ":"),
            Self.match(Self.pieces(base[baseColon...]), Array(rest[colon...].utf8)[...], &values, separator: UInt8(ascii: "/"))
        else { return nil }
        let items = Array(QueryString(urlQuery, decoding: .percent))
        for item in queryItems {
            let itemPieces = Self.pieces(Substring(item.value ?? ""))
            guard let given = items.first(where: { $0.name == item.name }) else {
                // A placeholder-only item is left out of expanded URLs when its value is absent.
                if itemPieces.contains(where: { if case .placeholder = $0 { true } else { false } }) { continue }
                return nil
            }
            guard let value = given.value, !given.isMalformed, Self.match(itemPieces, Array(value.utf8)[...], &values, separator: nil, decoded: true)
            else { return nil }
        }
        var decoded: [String: String] = [:]
        for (name, raw) in values {
            guard let text = PercentCoding.decode(raw).validText else { return nil }
            decoded[name] = text
        }
        let named = Set(queryItems.map(\.name))
        let others = items.filter { !named.contains($0.name) && !$0.isMalformed }.map { PassThroughValue(name: $0.name, value: $0.value ?? "") }
        return Reading(values: decoded, otherQuery: others)
    }

    private enum Piece {
        case literal([UInt8])
        case placeholder(String)
    }

    private static func pieces(_ text: Substring) -> [Piece] {
        var pieces: [Piece] = []
        var rest = text
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { pieces.append(.literal(Array(rest[..<open].utf8))) }
            pieces.append(.placeholder(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.literal(Array(rest.utf8))) }
        return pieces
    }

    /// Leftmost-shortest matching of `pieces` against all of `bytes`; a placeholder takes at least
    /// one byte and never `separator`. Values already decoded (query values) are re-encoded so every
    /// captured value is percent-encoded text.
    private static func match(
        _ pieces: [Piece], _ bytes: ArraySlice<UInt8>, _ values: inout [String: String], separator: UInt8?, decoded: Bool = false
    ) -> Bool {
        guard let first = pieces.first else { return bytes.isEmpty }
        let rest = Array(pieces.dropFirst())
        switch first {
        case .literal(let literal):
            guard bytes.starts(with: literal) else { return false }
            return match(rest, bytes.dropFirst(literal.count), &values, separator: separator, decoded: decoded)
        case .placeholder(let name):
            var end = bytes.startIndex + 1
            while end <= bytes.endIndex {
                if let separator, bytes[end - 1] == separator { return false }
                var attempt = values
                let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
                attempt[name] = decoded ? PercentCoding.encode(text) : text
                if match(rest, bytes[end...], &attempt, separator: separator, decoded: decoded) {
                    values = attempt
                    return true
                }
                end += 1
            }
            return false
        }
    }
}
