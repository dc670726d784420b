/// A bounds-checked reader of DER/BER elements within `bytes[start..<end]`.
struct DERReader {
    /// One element: its tag, where its contents are, and whether its length was indefinite (then
    /// `contents` runs up to, not including, the end-of-contents octets).
    struct Element {
        let tag: UInt8
        let contents: Range<Int>
        var isConstructed: Bool { tag & 0x20 != 0 }
    }

    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    let depth: Int

    init(bytes: [UInt8]) {
        self.init(bytes: bytes, range: 0..<bytes.count, depth: 0)
    }

    private init(bytes: [UInt8], range: Range<Int>, depth: Int) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
        self.depth = depth
    }

    var isAtEnd: Bool { position >= end }

    /// A reader over an element's contents.
    func child(_ element: Element) -> DERReader {
        DERReader(bytes: bytes, range: element.contents, depth: depth + 1)
    }

    /// The next element; the reader moves past it (and past its end-of-contents octets).
    mutating func element() throws(DERError) -> Element {
        guard depth <= CMSEnvelope.maximumDepth else { throw DERError(reason: "the envelope nests deeper than \(CMSEnvelope.maximumDepth) levels") }
        guard position < end else { throw DERError(reason: "the envelope ends where an element should start") }
        let tag = bytes[position]
        guard tag & 0x1F != 0x1F else { throw DERError(reason: "the envelope uses a multi-byte tag at byte \(position), which CMS does not") }
        position += 1
        guard position < end else { throw DERError(reason: "the envelope ends inside an element header") }
        let first = bytes[position]
        position += 1
        if first == 0x80 {
            // Indefinite length (BER): the contents are elements up to two zero octets.
            guard tag & 0x20 != 0 else { throw DERError(reason: "a primitive element at byte \(position - 2) has an indefinite length") }
            let start = position
            var inner = DERReader(bytes: bytes, range: position..<end, depth: depth + 1)
            while true {
                guard inner.position + 1 < end else { throw DERError(reason: "an indefinite-length element starting at byte \(start - 2) is never closed") }
                if bytes[inner.position] == 0, bytes[inner.position + 1] == 0 { break }
                _ = try inner.element()
            }
            position = inner.position + 2
            return Element(tag: tag, contents: start..<inner.position)
        }
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4 else { throw DERError(reason: "an element at byte \(position - 2) claims a length of \(count) bytes") }
            guard end - position >= count else { throw DERError(reason: "the envelope ends inside a length") }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
        }
        guard length <= end - position else {
            throw DERError(reason: "an element at byte \(position) claims \(length) bytes but only \(end - position) remain")
        }
        let contents = position..<(position + length)
        position += length
        return Element(tag: tag, contents: contents)
    }

    /// The next element, which must have `tag`; `what` names it in the error.
    mutating func expect(tag: UInt8, _ what: String) throws(DERError) -> Element {
        let found = try element()
        guard found.tag == tag else {
            throw DERError(reason: "expected \(what) (tag 0x\(String(tag, radix: 16))), found tag 0x\(String(found.tag, radix: 16))")
        }
        return found
    }

    /// The bytes of an OCTET STRING, primitive (0x04) or constructed from chunks (0x24, BER).
    func octetString(_ element: Element, depth: Int) throws(DERError) -> [UInt8] {
        switch element.tag {
        case 0x04:
            return Array(bytes[element.contents])
        case 0x24:
            guard depth < CMSEnvelope.maximumDepth else {
                throw DERError(reason: "the signed content is chunked deeper than \(CMSEnvelope.maximumDepth) levels")
            }
            var chunks = child(element)
            var result: [UInt8] = []
            while !chunks.isAtEnd {
                result += try octetString(try chunks.element(), depth: depth + 1)
            }
            return result
        default:
            throw DERError(reason: "expected the signed content as an OCTET STRING, found tag 0x\(String(element.tag, radix: 16))")
        }
    }
}
