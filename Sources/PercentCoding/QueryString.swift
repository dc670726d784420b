/// A URL's query (the text after `?`) read as `name=value` items: the one query splitter, shared
/// by the request parser, the link router, the app-URL templates and the AASA matcher, which differ
/// only in `Decoding`.
///
/// Items are split on the byte `&`, never on `Character`s, so an `&` followed by a combining mark
/// still separates (as in the WHATWG URL standard and `URLComponents`). Empty pieces (`a=1&&b=2`)
/// are skipped; a name ends at the first `=` (`a==b` is `a` with the value `=b`). Splitting comes
/// before decoding, so an encoded `%26` or `%3D` stays inside its name or value.
public struct QueryString: Sequence, Sendable {
    /// How names and values are decoded once split.
    public enum Decoding: Sendable {
        /// As written, escapes included: AASA's `percentEncoded: true` and link-rule matching.
        case asWritten
        /// `%HH` decoded, `+` kept as a plus (RFC 3986): AASA's `percentEncoded: false`.
        case percent
        /// `%HH` decoded and `+` read as a space, as browsers encode forms: the HTTP request.
        case form
    }

    /// One item of the query.
    public struct Item: Sendable, Equatable {
        public let name: String
        /// `nil` for an item written without `=` (`?flag`), which differs from an empty value (`?flag=`).
        public let value: String?
        /// True when decoding the name or value met a broken escape or bytes that are not UTF-8.
        public let isMalformed: Bool

        public init(name: String, value: String?, isMalformed: Bool = false) {
            self.name = name
            self.value = value
            self.isMalformed = isMalformed
        }
    }

    /// Walks the query's bytes one item at a time; nothing is split ahead of need.
    public struct Iterator: IteratorProtocol {
        private let utf8: Substring.UTF8View
        private let decoding: Decoding
        private var position: Substring.UTF8View.Index

        init(_ text: Substring, decoding: Decoding) {
            utf8 = text.utf8
            self.decoding = decoding
            position = utf8.startIndex
        }

        public mutating func next() -> Item? {
            while position != utf8.endIndex {
                let start = position
                let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
                position = end == utf8.endIndex ? end : utf8.index(after: end)
                guard start != end else { continue }
                let piece = utf8[start..<end]
                guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else {
                    let name = decode(piece)
                    return Item(name: name.text, value: nil, isMalformed: name.isMalformed)
                }
                let name = decode(piece[..<equals])
                let value = decode(piece[piece.index(after: equals)...])
                return Item(name: name.text, value: value.text, isMalformed: name.isMalformed || value.isMalformed)
            }
            return nil
        }

        private func decode(_ bytes: Substring.UTF8View) -> PercentDecodedText {
            switch decoding {
            case .asWritten: PercentDecodedText(text: String(Substring(bytes)), isMalformed: false)
            case .percent: PercentCoding.decode(Substring(bytes), plusAsSpace: false)
            case .form: PercentCoding.decode(Substring(bytes), plusAsSpace: true)
            }
        }
    }

    /// The query as written, without the `?`.
    public let text: Substring
    public let decoding: Decoding

    public init(_ text: Substring, decoding: Decoding) {
        self.text = text
        self.decoding = decoding
    }

    public init(_ text: String, decoding: Decoding) {
        self.init(Substring(text), decoding: decoding)
    }

    public func makeIterator() -> Iterator { Iterator(text, decoding: decoding) }
}
