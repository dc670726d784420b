import PercentCoding
import Testing

/// Text built from pieces reads exactly as the same pieces joined as strings would.
@Suite("Text built from pieces")
struct TextBuilderTests {
    @Test func piecesAndEncodedValuesJoinAsStringsWould() {
        var builder = TextBuilder(capacity: 4)
        #expect(builder.isEmpty)
        builder.append("https://")
        builder.append(utf8: Array("rowhni.com".utf8))
        builder.append(ascii: UInt8(ascii: "/"))
        builder.append(percentEncoding: "a b/ç?&=")
        builder.append(ascii: UInt8(ascii: "?"))
        builder.append(percentEncoding: "%41 ok", .pathAndQuery)
        builder.append(" · 日本")
        #expect(!builder.isEmpty)
        let joined = "https://rowhni.com/" + PercentCoding.encode("a b/ç?&=") + "?" + PercentCoding.encode("%41 ok", .pathAndQuery) + " · 日本"
        #expect(builder.text == joined)
        #expect(builder.text == "https://rowhni.com/a%20b%2F%C3%A7%3F%26%3D?%41%20ok · 日本")
    }

    @Test func everyByteEncodesAsEncodeDoes() {
        let every = String(decoding: (1...127).map { UInt8($0) }, as: UTF8.self) + "é☃"
        for set in [PercentCoding.EncodeSet.component, .pathAndQuery] {
            var builder = TextBuilder()
            builder.append(percentEncoding: every, set)
            #expect(builder.text == PercentCoding.encode(every, set))
        }
    }

    @Test func textsTakenOneAfterAnotherStartEmpty() {
        var builder = TextBuilder(capacity: 8)
        builder.append("Thread 1, page 2")
        #expect(builder.takeText() == "Thread 1, page 2")
        #expect(builder.isEmpty)
        var url = "awful://threads/1#top"
        url.withUTF8 { bytes in
            builder.append(utf8: UnsafeBufferPointer(rebasing: bytes[..<17]))
            builder.append(ascii: UInt8(ascii: "?"))
            builder.append(utf8: UnsafeBufferPointer(rebasing: bytes[17...]))
        }
        #expect(builder.takeText() == "awful://threads/1?#top")
        builder.append("partial")
        builder.removeAll()
        #expect(builder.isEmpty)
        #expect(builder.takeText().isEmpty)
    }

    @Test func aCopyKeepsItsTextWhenTheOtherGrows() {
        var first = TextBuilder(capacity: 1)
        first.append("abc")
        var second = first
        second.append(ascii: UInt8(ascii: "d"))
        first.append(percentEncoding: "e f")
        #expect(first.text == "abce%20f")
        #expect(second.text == "abcd")
        var third = second
        #expect(third.takeText() == "abcd")
        #expect(third.isEmpty && second.text == "abcd")
        let long = String(repeating: "0123456789", count: 50) + "日本"
        for piece in long.split(separator: "5") {
            third.append(String(piece))
            third.append(ascii: UInt8(ascii: "5"))
        }
        #expect(third.text == long + "5")
    }
}
