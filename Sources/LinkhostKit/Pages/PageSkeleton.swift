import Glibc
import PercentCoding
import Synchronization

/// A page rendered once with a marker in place of each value that varies from link to link, then
/// cut at the markers: the fixed bytes between them, and for each marker the value it stands for
/// and whether the template escaped it. A request fills the values in — escaping those the template
/// escapes — instead of rendering the template again: a page for a link never seen before costs a
/// few string operations, not a Mustache render (2.3 million instructions measured).
///
/// The markers are private-use characters around a per-process random number and the slot's
/// number, with a `<` inside: the template's HTML escaping turns that into `&lt;`, which is how an
/// escaped place is told from a raw one (`{{{…}}}`, used for the QR code's SVG).
struct PageSkeleton: Sendable {
    /// One place a value goes: which slot, and whether it is HTML-escaped there.
    struct Hole: Sendable {
        let slot: PageSlot
        let escaped: Bool
        /// An earlier hole with the same slot, escaped as this one is (a page's canonical URL and
        /// heading appear in its head and its body): its bytes are copied, not escaped again.
        var earlierTwin: Int?
    }

    /// `pieces[0]`, then for each hole its value and the next piece.
    private let pieces: [[UInt8]]
    private let holes: [Hole]
    /// The fixed bytes in all, for reserving the body's size.
    private let fixedCount: Int

    /// The marker of `slot` in the page's values before rendering.
    static func marker(_ slot: PageSlot) -> String { "\u{E000}\(nonce)-\(slot.rawValue)<\u{E001}" }

    private static let nonce = UInt64.random(in: 1...UInt64.max)

    /// Cuts `rendered` (the template rendered with `marker(_:)` for every slot) into pieces and holes.
    init(rendered: String) {
        let bytes = Array(rendered.utf8)
        let start = Array("\u{E000}\(Self.nonce)-".utf8)
        let end = Array("\u{E001}".utf8)
        var pieces: [[UInt8]] = []
        var holes: [Hole] = []
        var pieceStart = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == start[0], bytes[index...].starts(with: start) else {
                index += 1
                continue
            }
            // "<slot><" (raw) or "<slot>&lt;" (escaped), then the end marker.
            var cursor = index + start.count
            var number = 0
            while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
                number = number * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                cursor += 1
            }
            let escapedMark = Array("&lt;".utf8)
            let escaped = bytes[cursor...].starts(with: escapedMark)
            cursor += escaped ? escapedMark.count : 1
            guard let slot = PageSlot(rawValue: number), bytes[cursor...].starts(with: end) else {
                index += 1
                continue
            }
            pieces.append(Array(bytes[pieceStart..<index]))
            let twin = holes.firstIndex { $0.slot == slot && $0.escaped == escaped }
            holes.append(Hole(slot: slot, escaped: escaped, earlierTwin: twin))
            index = cursor + end.count
            pieceStart = index
        }
        pieces.append(Array(bytes[pieceStart...]))
        self.pieces = pieces
        self.holes = holes
        fixedCount = pieces.reduce(0) { $0 + $1.count }
    }

    /// The page with `values` in its holes (a missing value leaves its hole empty).
    func fill(_ values: PageValues) -> [UInt8] {
        var offsets: [Int] = []
        return fill(values, marking: nil, at: &offsets)
    }

    /// The page with `values` in its holes, and where `marker` stands in it: each value is searched
    /// as it is placed (a few hundred bytes), never the whole page.
    func fill(_ values: PageValues, marking marker: [UInt8]?, at offsets: inout [Int]) -> [UInt8] {
        // Two passes over the values: their sizes as placed, then the bytes written straight into
        // a body of exactly that size (appending piece by piece checked capacity and uniqueness
        // for every piece, and a body that grows copies all it holds). A repeated value (a page's
        // canonical URL and heading appear in its head and its body) is sized and escaped once and
        // copied from its first place.
        // For each escaped value, how many of its bytes lead up to the first to escape
        // (`HTMLEscaping.measure`).
        withUnsafeTemporaryAllocation(of: (placed: Range<Int>, cleanPrefix: Int).self, capacity: holes.count) { placed in
            var total = fixedCount
            for index in holes.indices {
                let hole = holes[index]
                var size = 0
                var cleanPrefix = 0
                if let twin = hole.earlierTwin {
                    size = placed[twin].placed.count
                } else if let value = values[hole.slot] {
                    if hole.escaped {
                        (size, cleanPrefix) = value.withContiguousUTF8(HTMLEscaping.measure)
                    } else {
                        size = value.utf8.count
                    }
                }
                placed.initializeElement(at: index, to: (0..<size, cleanPrefix))
                total += size
            }
            let body = [UInt8](unsafeUninitializedCapacity: total) { output, count in
                guard let base = output.baseAddress else { return }
                var written = 0
                func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                    guard let source = bytes.baseAddress else { return }
                    (base + written).initialize(from: source, count: bytes.count)
                    written += bytes.count
                }
                pieces[0].withUnsafeBufferPointer(put)
                for index in holes.indices {
                    let hole = holes[index]
                    let size = placed[index].placed.count
                    if size > 0 {
                        if let twin = hole.earlierTwin {
                            (base + written).initialize(from: base + placed[twin].placed.lowerBound, count: size)
                        } else if let value = values[hole.slot] {
                            value.withContiguousUTF8 { bytes in
                                if hole.escaped {
                                    HTMLEscaping.write(bytes, cleanPrefix: placed[index].cleanPrefix, to: base + written)
                                } else {
                                    (base + written).initialize(from: bytes.baseAddress!, count: size)
                                }
                            }
                        }
                    }
                    placed[index].placed = written..<(written + size)
                    written += size
                    pieces[index + 1].withUnsafeBufferPointer(put)
                }
                count = written
            }
            if let marker {
                for (range, _) in placed where !range.isEmpty { Self.find(marker, in: body, from: range.lowerBound, to: range.upperBound, into: &offsets) }
            }
            return body
        }
    }

    /// Appends to `offsets` where `marker` starts in `body[start..<end]` (one value as placed). The
    /// candidates are found with `memchr` (many bytes a step), then compared: a loop testing each
    /// byte cost a new link's page more.
    private static func find(_ marker: [UInt8], in body: [UInt8], from start: Int, to end: Int, into offsets: inout [Int]) {
        guard let first = marker.first, end - start >= marker.count else { return }
        body.withUnsafeBufferPointer { bytes in
            marker.withUnsafeBufferPointer { needle in
                guard let base = bytes.baseAddress else { return }
                var index = start
                while end - index >= needle.count,
                    let found = memchr(base + index, Int32(first), end - index - needle.count + 1)
                {
                    let offset = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    if memcmp(base + offset, needle.baseAddress!, needle.count) == 0 {
                        offsets.append(offset)
                        index = offset + needle.count
                    } else {
                        index = offset + 1
                    }
                }
            }
        }
    }

}

/// The values of a page that vary from link to link, each in its slot.
enum PageSlot: Int, Sendable, CaseIterable {
    case heading, documentTitle, summary, canonicalURL, openURL, banner, copyCode, copyValue, webURL, qrSVG, qrLink
    /// Google Play's page with the install referrer (Android pages).
    case storeURL
}

/// A set of page slots, one bit each (a set per request would be an allocation).
struct PageSlots: OptionSet, Hashable, Sendable {
    let rawValue: UInt16

    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The set of `slot` alone.
    init(_ slot: PageSlot) { rawValue = 1 << slot.rawValue }
}

/// A page's varying values by slot; `nil` where the page has none. One stored property a slot, not
/// an array: an array of optional strings is destroyed element by element through the runtime's
/// value witnesses, and a page made several a request.
struct PageValues: Sendable {
    private var heading, documentTitle, summary, canonicalURL, openURL, banner: String?
    private var copyCode, copyValue, webURL, qrSVG, qrLink, storeURL: String?

    // One switch to read and one to write, not a table of key paths: applying a key path is a
    // runtime call per access, and a page reads and writes its slots a couple of dozen times.
    subscript(slot: PageSlot) -> String? {
        get {
            switch slot {
            case .heading: heading
            case .documentTitle: documentTitle
            case .summary: summary
            case .canonicalURL: canonicalURL
            case .openURL: openURL
            case .banner: banner
            case .copyCode: copyCode
            case .copyValue: copyValue
            case .webURL: webURL
            case .qrSVG: qrSVG
            case .qrLink: qrLink
            case .storeURL: storeURL
            }
        }
        set {
            switch slot {
            case .heading: heading = newValue
            case .documentTitle: documentTitle = newValue
            case .summary: summary = newValue
            case .canonicalURL: canonicalURL = newValue
            case .openURL: openURL = newValue
            case .banner: banner = newValue
            case .copyCode: copyCode = newValue
            case .copyValue: copyValue = newValue
            case .webURL: webURL = newValue
            case .qrSVG: qrSVG = newValue
            case .qrLink: qrLink = newValue
            case .storeURL: storeURL = newValue
            }
        }
    }

    /// The values every slot's marker stands in for (`PageSkeleton.marker`), for rendering a skeleton.
    static func markers(for slots: PageSlots) -> PageValues {
        var values = PageValues()
        for slot in PageSlot.allCases where slots.contains(PageSlots(slot)) { values[slot] = PageSkeleton.marker(slot) }
        return values
    }

    /// The slots that hold a value.
    var present: PageSlots {
        var slots = PageSlots()
        for slot in PageSlot.allCases where self[slot] != nil { slots.insert(PageSlots(slot)) }
        return slots
    }
}

/// HTML escaping for text and double- or single-quoted attribute values: `&`, `<`, `>`, `"` and
/// `'` become references, exactly as the page templates' `{{…}}` writes them — but byte by byte,
/// where the template engine goes by grapheme cluster and so leaves a quote that a combining mark
/// follows (`"\u{301}`) unescaped, which would end an attribute early.
enum HTMLEscaping {
    /// The size of `text` escaped.
    static func escapedCount(_ text: String) -> Int {
        text.withContiguousUTF8 { measure($0).count }
    }

    /// The size of `bytes` escaped, and how many bytes lead up to the first that needs escaping (all
    /// of them when none does): `write` copies those whole instead of scanning them a second time.
    /// Most values have nothing to escape and a URL's first `&` comes late, so writing a page's
    /// values became mostly copying. Scanned eight bytes at a time (`cleanEnd`), which costs a new
    /// link's page far less than a test of every byte.
    static func measure(_ bytes: UnsafeBufferPointer<UInt8>) -> (count: Int, cleanPrefix: Int) {
        guard let base = bytes.baseAddress else { return (0, 0) }
        var count = bytes.count
        var cleanPrefix = bytes.count
        var index = 0
        while index < bytes.count {
            index = cleanEnd(base, from: index, count: bytes.count)
            // The eight bytes after the run (or the last few) may hold one to escape: one by one.
            let end = min(index + 8, bytes.count)
            while index < end {
                if let reference = reference(for: bytes[index]) {
                    cleanPrefix = min(cleanPrefix, index)
                    count += reference.utf8CodeUnitCount - 1
                }
                index += 1
            }
        }
        return (count, cleanPrefix)
    }

    /// Writes `bytes` escaped at `output`, which has room for their escaped count; the first
    /// `cleanPrefix` bytes need no escaping (`measure`) and are copied without looking at them.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>, cleanPrefix: Int = 0, to output: UnsafeMutablePointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        output.initialize(from: base, count: cleanPrefix)
        var written = cleanPrefix
        var index = cleanPrefix
        while index < bytes.count {
            // A run with nothing to escape, a word at a time, then copied whole.
            var end = cleanEnd(base, from: index, count: bytes.count)
            while end < bytes.count, reference(for: bytes[end]) == nil { end += 1 }
            (output + written).initialize(from: base + index, count: end - index)
            written += end - index
            guard end < bytes.count, let reference = reference(for: bytes[end]) else { return }
            (output + written).initialize(from: reference.utf8Start, count: reference.utf8CodeUnitCount)
            written += reference.utf8CodeUnitCount
            index = end + 1
        }
    }

    /// The character reference `byte` is written as, if it is one to escape.
    @inline(__always)
    private static func reference(for byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }

    /// Where the run of whole eight-byte words from `index` on that need no escaping ends; the
    /// bytes after it are looked at one by one. Two words a step while sixteen bytes are left, their
    /// tests joined before the one branch. (Sixteen bytes at a time in Swift's `SIMD16` was slower
    /// by a third of a page's cost: the compiler did not keep the comparisons in vectors.)
    @inline(__always)
    private static func cleanEnd(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        var index = index
        while count - index >= 16 {
            let first = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let second = UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self)
            guard candidates(first) | candidates(second) == 0 else { break }
            index += 16
        }
        while count - index >= 8, candidates(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) == 0 { index += 8 }
        return index
    }

    /// The high bit of each byte of `word` that may need escaping (`&`, `<`, `>`, `"` or `'`), and
    /// of `#`: two tests instead of five. `<` (3C) and `>` (3E) differ only in bit 1, so a byte
    /// with that bit set is 3E exactly for them; `"` (22), `#` (23), `&` (26) and `'` (27) only in
    /// bits 0 and 2, so with those set it is 27. (`#` is then looked at and left alone: it is rare
    /// in a page's values, and a third test cost every word.) A byte of `x ^ c` is zero where it
    /// equals `c`; `(x - 0x01…) & ~x & 0x80…` is non-zero exactly when `x` has a zero byte.
    @inline(__always)
    static func candidates(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        @inline(__always) func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x }
        return (zeroByte((word | (ones &* 0x02)) ^ (ones &* 0x3E)) | zeroByte((word | (ones &* 0x05)) ^ (ones &* 0x27))) & (ones &* 0x80)
    }

    /// `text` escaped, as bytes.
    static func bytes(_ text: String) -> [UInt8] {
        text.withContiguousUTF8 { bytes in
            let (count, cleanPrefix) = measure(bytes)
            return [UInt8](unsafeUninitializedCapacity: count) { output, written in
                if let base = output.baseAddress { write(bytes, cleanPrefix: cleanPrefix, to: base) }
                written = count
            }
        }
    }

    /// `text` escaped, as a string.
    static func escape(_ text: String) -> String {
        String(decoding: bytes(text), as: UTF8.self)
    }
}

/// The skeletons of a site's pages by shape, made on first use and kept: shapes are few (hosts ×
/// languages × devices × rules × which optional parts a page has, and broken-link reasons).
final class PageSkeletons: Sendable {
    private let table = Mutex<[PageShape: PageSkeleton]>([:])
    /// Past this many shapes (a config with very many rules and hosts) the table starts over.
    static let capacity = 4096

    /// Skeletons held now.
    var count: Int { table.withLock { $0.count } }

    func skeleton(for shape: PageShape, make: () -> PageSkeleton) -> PageSkeleton {
        if let known = table.withLock({ $0[shape] }) { return known }
        let made = make()
        table.withLock { table in
            if table.count >= Self.capacity { table.removeAll(keepingCapacity: true) }
            table[shape] = made
        }
        return made
    }
}

/// What selects a page's skeleton: the kind of page, where and for whom it is, and which of its
/// optional parts it has. Everything else on the page is either fixed by these or a value.
struct PageShape: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case link(rule: String)
        case badLink(rule: String, problem: LinkProblemKey)
        case notFound
    }

    let kind: Kind
    let host: String
    let language: String
    let variant: PageVariant
    /// The slots the page has values for (an optional summary, copy block, QR code, ...).
    let slots: PageSlots
}

/// A broken-link reason as far as it changes the page: its kind, its parameter and what it expected.
struct LinkProblemKey: Hashable, Sendable {
    let code: String
    let parameter: String
    let detail: String
}
