import PercentCoding
import Testing

/// A string's bytes read in place are the bytes `withUTF8` gives, for small, large, empty and
/// non-ASCII strings alike.
@Suite("A string's UTF-8 read in place")
struct ContiguousUTF8Tests {
    @Test func theBytesAreThoseOfTheString() {
        let long = String(repeating: "https://forums.somethingawful.com/", count: 4)
        for text in ["", "a", "threadid", "Thread 1, page 2 · Awful", "日本語 é\u{301}", long, String(long.dropFirst(3))] {
            #expect(text.withContiguousUTF8 { Array($0) } == Array(text.utf8), "\(text)")
        }
    }
}
