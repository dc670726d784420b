import PercentCoding
import Testing

@Suite("Query splitting")
struct QueryStringTests {
    private func items(_ query: String, _ decoding: QueryString.Decoding = .form) -> [QueryString.Item] {
        Array(QueryString(query, decoding: decoding))
    }

    private func item(_ name: String, _ value: String?, malformed: Bool = false) -> QueryString.Item {
        QueryString.Item(name: name, value: value, isMalformed: malformed)
    }

    @Test func splitsOnAmpersandsAndTheFirstEqualsSign() {
        #expect(items("a=1&b=2&a=3") == [item("a", "1"), item("b", "2"), item("a", "3")])
        #expect(items("a==b&c=d=e") == [item("a", "=b"), item("c", "d=e")])
    }

    @Test func emptyValuesMissingValuesAndEmptyPieces() {
        #expect(items("a=") == [item("a", "")])
        #expect(items("a") == [item("a", nil)])
        #expect(items("=x") == [item("", "x")])
        #expect(items("=") == [item("", "")])
        #expect(items("&&").isEmpty)
        #expect(items("").isEmpty)
        #expect(items("&a=1&&b&") == [item("a", "1"), item("b", nil)])
    }

    @Test func encodedSeparatorsStayInsideTheirItem() {
        #expect(items("q=a%26b%3Dc&x%3Dy=1", .percent) == [item("q", "a&b=c"), item("x=y", "1")])
        #expect(items("q=a%26b", .asWritten) == [item("q", "a%26b")])
    }

    @Test func theDecodingDecidesAboutEscapesAndPlus() {
        let query = "q=a+b%20c%2B&n%61me"
        #expect(items(query, .asWritten) == [item("q", "a+b%20c%2B"), item("n%61me", nil)])
        #expect(items(query, .percent) == [item("q", "a+b c+"), item("name", nil)])
        #expect(items(query, .form) == [item("q", "a b c+"), item("name", nil)])
    }

    @Test func brokenEncodingMarksOnlyItsOwnItem() {
        #expect(items("ok=%41&bad=%zz&end%") == [item("ok", "A"), item("bad", "%zz", malformed: true), item("end%", nil, malformed: true)])
        #expect(items("u=%FF&o=%C0%AF") == [item("u", "\u{FFFD}", malformed: true), item("o", "\u{FFFD}\u{FFFD}", malformed: true)])
        #expect(items("m=%C3%BC") == [item("m", "ü")])
        // As written, nothing is decoded, so nothing is malformed.
        #expect(items("bad=%zz", .asWritten) == [item("bad", "%zz")])
    }

    // "&" followed by a combining mark is one Character in Swift but still separates items, as in
    // the WHATWG URL standard and URLComponents: splitting is on bytes.
    @Test func anAmpersandOrEqualsSignFollowedByACombiningMarkStillSeparates() {
        #expect(items("a=1&\u{301}b=2") == [item("a", "1"), item("\u{301}b", "2")])
        #expect(items("a=\u{301}x", .asWritten) == [item("a", "\u{301}x")])
        #expect(items("é=1&\u{301}") == [item("é", "1"), item("\u{301}", nil)])
    }

    @Test func aSubstringIsSplitWithinItsBounds() {
        let target = "/p?x=1&y=2#frag"
        let query = target[target.index(target.startIndex, offsetBy: 3)..<target.firstIndex(of: "#")!]
        #expect(Array(QueryString(query, decoding: .asWritten)) == [item("x", "1"), item("y", "2")])
    }
}
