/// Text put together from pieces as UTF-8 bytes, values percent-encoded as they are placed: the
/// links, app URLs and titles a page of a new link is made of. Appending to a `String` checks its storage,
/// ASCII-ness and capacity for each piece, thirty pieces a page; appending to an array of bytes
/// costs a quarter of that, and the pieces are now copied into a buffer of the builder's own
/// (`TextStorage`), cheaper again than the array. The text is made once.
///
/// Sendable unchecked (`ManagedBuffer` never is): the builder changes its buffer only while it
/// holds the only reference (`isKnownUniquelyReferenced`) and copies it first otherwise, so a
/// buffer reachable from two places, or two threads, is never written to.
public struct TextBuilder: @unchecked Sendable {
    /// The bytes, copied before a change when a copy of the builder shares them.
    private var storage: TextStorage

    /// A builder with room for `capacity` bytes before it grows.
    public init(capacity: Int = 64) {
        storage = TextStorage.make(capacity: capacity)
    }

    /// Whether nothing has been appended.
    public var isEmpty: Bool { storage.count == 0 }

    /// The text built so far.
    public var text: String { storage.withBytes { String(decoding: $0, as: UTF8.self) } }

    /// The text built so far, leaving the builder empty with its room kept: a page's several texts
    /// are made one after another in one builder, not each in a buffer of its own (allocated and
    /// freed for every text).
    public mutating func takeText() -> String {
        defer { removeAll() }
        return text
    }

    /// Appends `text` as it is.
    public mutating func append(_ text: String) {
        text.withContiguousUTF8 { append(utf8: $0) }
    }

    /// Appends UTF-8 bytes as they are (valid UTF-8, as a template's literal text is).
    public mutating func append(utf8: [UInt8]) {
        utf8.withUnsafeBufferPointer { append(utf8: $0) }
    }

    /// Appends UTF-8 bytes as they are (a valid UTF-8 piece of a string, cut at ASCII bytes).
    public mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress, !utf8.isEmpty else { return }
        appendUninitialized(utf8.count).initialize(from: source, count: utf8.count)
    }

    /// Empties the builder, keeping its room.
    public mutating func removeAll() {
        if isKnownUniquelyReferenced(&storage) {
            storage.clear()
        } else {
            storage = TextStorage.make(capacity: storage.room)
        }
    }

    /// Appends one ASCII byte (`?`, `&`, `=`).
    public mutating func append(ascii byte: UInt8) {
        appendUninitialized(1).initialize(to: byte)
    }

    /// Appends `text` with every byte `set` does not keep written as `%HH`, as
    /// `PercentCoding.encode(_:_:)` writes it.
    public mutating func append(percentEncoding text: String, _ set: PercentCoding.EncodeSet = .component) {
        func place(_ source: UnsafeBufferPointer<UInt8>) {
            let escapes = PercentCoding.escapeCount(source, set)
            guard escapes > 0 else {
                append(utf8: source)
                return
            }
            let count = source.count + 2 * escapes
            let output = appendUninitialized(count)
            _ = PercentCoding.writeEncoded(source, set, to: UnsafeMutableBufferPointer(start: output, count: count))
        }
        text.withContiguousUTF8(place)
    }

    /// Makes room for `count` more bytes at the end and counts them in; where they go, for the
    /// caller to initialize at once. A shared or full buffer is copied into one of its own first
    /// (at least twice as large, so a text grown piece by piece is copied a few times, not each time).
    private mutating func appendUninitialized(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if !isKnownUniquelyReferenced(&storage) || !storage.hasRoom(for: count) {
            let used = storage.count
            let larger = TextStorage.make(capacity: max(2 * storage.room, used + count))
            storage.withBytes { old in larger.claim(used).initialize(from: old.baseAddress!, count: used) }
            storage = larger
        }
        return storage.claim(count)
    }
}

/// A `TextBuilder`'s bytes: a count and a capacity, then the bytes, in one allocation.
private final class TextStorage: ManagedBuffer<(count: Int, capacity: Int), UInt8> {
    /// An empty buffer with room for `capacity` bytes (a few at least).
    static func make(capacity: Int) -> TextStorage {
        let capacity = max(capacity, 16)
        let buffer = create(minimumCapacity: capacity) { _ in (0, capacity) }
        return unsafeDowncast(buffer, to: TextStorage.self)
    }

    // The header is read and written through its pointer: the `header` property is checked for
    // exclusive access at run time, on every append.

    /// The bytes in use.
    var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }

    /// The bytes there is room for (as asked for; `capacity` is the allocation's, worked out anew).
    var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

    /// Whether `extra` more bytes fit.
    func hasRoom(for extra: Int) -> Bool {
        withUnsafeMutablePointerToHeader { $0.pointee.capacity - $0.pointee.count >= extra }
    }

    /// Counts `extra` more bytes in (there must be room) and returns where they go.
    func claim(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        withUnsafeMutablePointers { header, bytes in
            let start = bytes + header.pointee.count
            header.pointee.count += extra
            return start
        }
    }

    /// Counts no bytes in use, keeping the room.
    func clear() {
        withUnsafeMutablePointerToHeader { $0.pointee.count = 0 }
    }

    /// Calls `body` with the bytes in use.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeMutablePointers { header, bytes in body(UnsafeBufferPointer(start: bytes, count: header.pointee.count)) }
    }
}
