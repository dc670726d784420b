import Glibc
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
    }

    /// `pieces[0]`, then for each hole its value and the next piece.
    private let pieces: [[UInt8]]
    private let holes: [Hole]
    /// The fixed bytes in all, for reserving the body's size.
    private let fixedCount: Int
    /// The slots escaped in more than one hole (a page's canonical URL and heading appear in its
    /// head and its body): their values are escaped once per fill.
    private let repeatedEscaped: PageSlots

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
            holes.append(Hole(slot: slot, escaped: escaped))
            index = cursor + end.count
            pieceStart = index
        }
        pieces.append(Array(bytes[pieceStart...]))
        self.pieces = pieces
        self.holes = holes
        fixedCount = pieces.reduce(0) { $0 + $1.count }
        var seen = PageSlots()
        var repeated = PageSlots()
        for hole in holes where hole.escaped {
            let slot = PageSlots(hole.slot)
            if seen.contains(slot) { repeated.insert(slot) } else { seen.insert(slot) }
        }
        repeatedEscaped = repeated
    }

    /// The page with `values` in its holes (a missing value leaves its hole empty).
    func fill(_ values: PageValues) -> [UInt8] {
        var offsets: [Int] = []
        return fill(values, marking: nil, at: &offsets)
    }

    /// The page with `values` in its holes, and where `marker` stands in it: each value is searched
    /// as it is placed (a few hundred bytes), never the whole page.
    func fill(_ values: PageValues, marking marker: [UInt8]?, at offsets: inout [Int]) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(fixedCount + 512)
        body.append(contentsOf: pieces[0])
        var escapedOnce = [[UInt8]?](repeating: nil, count: repeatedEscaped.isEmpty ? 0 : PageSlot.allCases.count)
        for (index, hole) in holes.enumerated() {
            if let value = values[hole.slot] {
                let start = body.count
                defer { if let marker { Self.find(marker, in: body, from: start, into: &offsets) } }
                if !hole.escaped {
                    body.append(contentsOf: value.utf8)
                } else if repeatedEscaped.contains(PageSlots(hole.slot)) {
                    let escaped = escapedOnce[hole.slot.rawValue] ?? HTMLEscaping.bytes(value)
                    escapedOnce[hole.slot.rawValue] = escaped
                    body.append(contentsOf: escaped)
                } else {
                    HTMLEscaping.append(value, to: &body)
                }
            }
            body.append(contentsOf: pieces[index + 1])
        }
        return body
    }

    /// Appends to `offsets` where `marker` starts in `body` at or after `start`. The candidates are
    /// found with `memchr` (many bytes a step), then compared: a loop testing each byte cost a new
    /// link's page about 3,000 instructions.
    private static func find(_ marker: [UInt8], in body: [UInt8], from start: Int, into offsets: inout [Int]) {
        guard let first = marker.first, body.count - start >= marker.count else { return }
        body.withUnsafeBufferPointer { bytes in
            marker.withUnsafeBufferPointer { needle in
                guard let base = bytes.baseAddress else { return }
                var index = start
                while bytes.count - index >= needle.count,
                    let found = memchr(base + index, Int32(first), bytes.count - index - needle.count + 1)
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

/// A page's varying values by slot; `nil` where the page has none.
struct PageValues: Sendable {
    private var values = [String?](repeating: nil, count: PageSlot.allCases.count)

    subscript(slot: PageSlot) -> String? {
        get { values[slot.rawValue] }
        set { values[slot.rawValue] = newValue }
    }

    /// The values every slot's marker stands in for (`PageSkeleton.marker`), for rendering a skeleton.
    static func markers(for slots: PageSlots) -> PageValues {
        var values = PageValues()
        for slot in PageSlot.allCases where slots.contains(PageSlots(rawValue: 1 << slot.rawValue)) { values[slot] = PageSkeleton.marker(slot) }
        return values
    }

    /// The slots that hold a value.
    var present: PageSlots {
        var slots = PageSlots()
        for (index, value) in values.enumerated() where value != nil { slots.insert(PageSlots(rawValue: 1 << index)) }
        return slots
    }
}

/// HTML escaping for text and double- or single-quoted attribute values: `&`, `<`, `>`, `"` and
/// `'` become references, exactly as the page templates' `{{…}}` writes them — but byte by byte,
/// where the template engine goes by grapheme cluster and so leaves a quote that a combining mark
/// follows (`"\u{301}`) unescaped, which would end an attribute early.
enum HTMLEscaping {
    static func append(_ text: String, to body: inout [UInt8]) {
        var text = text
        // Over the contiguous UTF-8 bytes: runs without anything to escape (most values are one)
        // are copied whole.
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let reference: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): reference = "&amp;"
                case UInt8(ascii: "<"): reference = "&lt;"
                case UInt8(ascii: ">"): reference = "&gt;"
                case UInt8(ascii: "\""): reference = "&quot;"
                case UInt8(ascii: "'"): reference = "&#39;"
                default: continue
                }
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                body.append(contentsOf: UnsafeBufferPointer(start: reference.utf8Start, count: reference.utf8CodeUnitCount))
                runStart = index + 1
            }
            body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }

    /// `text` escaped, as bytes.
    static func bytes(_ text: String) -> [UInt8] {
        var body: [UInt8] = []
        append(text, to: &body)
        return body
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
