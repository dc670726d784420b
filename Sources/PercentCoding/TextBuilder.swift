/// Text put together from pieces as UTF-8 bytes, values percent-encoded as they are placed: the
/// links, app URLs and titles a page of a new link is made of. Appending to a `String` cost about
/// 400 instructions a piece (its storage, ASCII and capacity checks each time), thirty pieces a
/// page; appending bytes to an array costs about a quarter of that, and the text is made once.
public struct TextBuilder: Sendable {
    private var bytes: [UInt8] = []

    /// A builder with room for `capacity` bytes before it grows.
    public init(capacity: Int = 64) {
        bytes.reserveCapacity(capacity)
    }

    /// Whether nothing has been appended.
    public var isEmpty: Bool { bytes.isEmpty }

    /// The text built so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The text built so far, leaving the builder empty with its room kept: a page's several texts
    /// are made one after another in one builder, not each in a buffer of its own (allocated and
    /// freed, about 300 instructions a text).
    public mutating func takeText() -> String {
        defer { removeAll() }
        return text
    }

    /// Appends `text` as it is.
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends UTF-8 bytes as they are (valid UTF-8, as a template's literal text is).
    public mutating func append(utf8: [UInt8]) {
        bytes.append(contentsOf: utf8)
    }

    /// Appends UTF-8 bytes as they are (a valid UTF-8 piece of a string, cut at ASCII bytes).
    public mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: utf8)
    }

    /// Empties the builder, keeping its room.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends one ASCII byte (`?`, `&`, `=`).
    public mutating func append(ascii byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `text` with every byte `set` does not keep written as `%HH`, as
    /// `PercentCoding.encode(_:_:)` writes it.
    public mutating func append(percentEncoding text: String, _ set: PercentCoding.EncodeSet = .component) {
        var text = text
        text.withUTF8 { source in
            let escapes = PercentCoding.escapeCount(source, set)
            guard escapes > 0 else {
                bytes.append(contentsOf: source)
                return
            }
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: source.count + 2 * escapes))
            bytes.withUnsafeMutableBufferPointer { output in
                _ = PercentCoding.writeEncoded(source, set, to: UnsafeMutableBufferPointer(rebasing: output[start...]))
            }
        }
    }
}
