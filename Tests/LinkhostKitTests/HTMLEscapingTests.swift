import Testing

@testable import LinkhostKit

/// `HTMLEscaping.measure` tells the escaped size and where the first byte to escape is, which
/// `write` copies up to without looking: both must hold for every special byte at every offset
/// around the eight-byte words the scan reads, beside multi-byte characters, and for nothing at all.
@Suite("HTML escaping measured before it is written")
struct HTMLEscapingTests {
    static let specials: [UInt8] = Array("&<>\"'".utf8)

    /// The escaped size and first special byte, found byte by byte.
    static func plain(_ bytes: [UInt8]) -> (count: Int, cleanPrefix: Int) {
        let sizes: [UInt8: Int] = [UInt8(ascii: "&"): 5, UInt8(ascii: "<"): 4, UInt8(ascii: ">"): 4, UInt8(ascii: "\""): 6, UInt8(ascii: "'"): 5]
        return (bytes.reduce(0) { $0 + (sizes[$1] ?? 1) }, bytes.firstIndex { specials.contains($0) } ?? bytes.count)
    }

    static func measured(_ text: String) -> (count: Int, cleanPrefix: Int) {
        Array(text.utf8).withUnsafeBufferPointer(HTMLEscaping.measure)
    }

    @Test func everySpecialByteIsFoundFirstAndCountedAtEveryOffset() {
        for special in ["&", "<", ">", "\"", "'", "é", "日", "=", "?", "#", "#&", "&<", "'\u{301}"] {
            for length in 0...20 {
                for offset in 0...length {
                    var text = String(repeating: "a", count: length)
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: offset))
                    let expected = Self.plain(Array(text.utf8))
                    let found = Self.measured(text)
                    #expect(found.count == expected.count && found.cleanPrefix == expected.cleanPrefix, "\(special) at \(offset) of \(length)")
                    #expect(HTMLEscaping.escapedCount(text) == expected.count)
                }
            }
        }
    }

    @Test func bytesNextToTheSpecialOnesAreNotEscaped() {
        // Each special byte's neighbours differ from it in the bits the scan sets before comparing.
        let near = (0x20...0x40).map { UInt8($0) }.filter { !Self.specials.contains($0) }
        let text = String(decoding: near + near.reversed(), as: UTF8.self)
        #expect(Self.measured(text) == (text.utf8.count, text.utf8.count))
        #expect(HTMLEscaping.escape(text) == text)
    }

    @Test func nothingMeasuresAsNothing() {
        #expect(Self.measured("") == (0, 0))
        #expect(HTMLEscaping.escape("").isEmpty)
        let plain = "https://forums.somethingawful.com/showthread.php?threadid=1"
        #expect(Self.measured(plain) == (plain.utf8.count, plain.utf8.count))
        #expect(HTMLEscaping.escape(plain) == plain)
    }

    @Test func aLinkIsCopiedUpToItsFirstAmpersandThenEscaped() {
        let link = "https://forums.somethingawful.com/showthread.php?threadid=2&pagenumber=2&x='<y>'"
        let first = link.utf8.firstIndex(of: UInt8(ascii: "&")).map { link.utf8.distance(from: link.utf8.startIndex, to: $0) }
        #expect(Self.measured(link).cleanPrefix == first)
        #expect(
            HTMLEscaping.escape(link) == "https://forums.somethingawful.com/showthread.php?threadid=2&amp;pagenumber=2&amp;x=&#39;&lt;y&gt;&#39;")
    }
}
