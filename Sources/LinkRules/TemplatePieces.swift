import PercentCoding

/// A `{name}` text template split once into its literal text and its placeholders, so text made for
/// every new link (a page's heading, an app URL) is not searched for braces again each time.
/// Filling gives exactly what `TextTemplate.fill` gives for the same text and values.
public struct TemplatePieces: Sendable {
    enum Piece: Sendable {
        case literal(String)
        case placeholder(String)
    }

    let pieces: [Piece]
    /// The bytes of literal text, for reserving the result's size.
    private let literalCount: Int

    /// Splits `text` as `TextTemplate.fill` reads it: a `{` up to the next `}` is a placeholder, and
    /// a `{` without a `}` after it is text.
    public init(_ text: String) {
        let utf8 = text.utf8
        var pieces: [Piece] = []
        var start = utf8.startIndex
        while let open = utf8[start...].firstIndex(of: UInt8(ascii: "{")),
            let close = utf8[utf8.index(after: open)...].firstIndex(of: UInt8(ascii: "}"))
        {
            if start != open { pieces.append(.literal(String(text[start..<open]))) }
            pieces.append(.placeholder(String(text[utf8.index(after: open)..<close])))
            start = utf8.index(after: close)
        }
        if start != utf8.endIndex { pieces.append(.literal(String(text[start...]))) }
        self.pieces = pieces
        literalCount = pieces.reduce(0) { if case .literal(let text) = $1 { $0 + text.utf8.count } else { $0 } }
    }

    /// Appends the text with each placeholder replaced by `values[name]` (percent-encoded for a URL
    /// when `percentEncoded`); a name without a value stays as written.
    public func fill(_ values: LinkValues, percentEncoded: Bool = false, into result: inout TextBuilder) {
        for piece in pieces {
            switch piece {
            case .literal(let text): result.append(text)
            case .placeholder(let name):
                if let value = values[name] {
                    if percentEncoded { result.append(percentEncoding: value) } else { result.append(value) }
                } else {
                    result.append(ascii: UInt8(ascii: "{"))
                    result.append(name)
                    result.append(ascii: UInt8(ascii: "}"))
                }
            }
        }
    }

    /// The text filled with `values` (see `fill(_:percentEncoded:into:)`).
    public func filled(_ values: LinkValues, percentEncoded: Bool = false) -> String {
        var result = TextBuilder(capacity: literalCount + 16 * pieces.count)
        fill(values, percentEncoded: percentEncoded, into: &result)
        return result.text
    }
}
