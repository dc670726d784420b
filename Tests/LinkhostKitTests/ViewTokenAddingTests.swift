import PercentCoding
import Testing

@testable import LinkhostKit

/// A token added in a builder shared with other texts reads as `ViewToken.adding` writes it, for
/// the URLs whose `?` and `#` the byte search must place right.
@Suite("A view token added in a shared builder")
struct ViewTokenAddingTests {
    @Test func aTokenIsAddedBeforeTheFirstFragmentAndAfterAnyQuery() {
        let cases = [
            ("", "?lh_view=T"), ("#", "?lh_view=T#"), ("a#b?c", "a?lh_view=T#b?c"), ("a?#", "a?lh_view=T#"), ("a?b&", "a?b&lh_view=T"),
            ("?", "?lh_view=T"), ("a?b#c#d", "a?b&lh_view=T#c#d"),
        ]
        var text = TextBuilder()
        text.append("before")
        _ = text.takeText()
        for (url, expected) in cases {
            #expect(ViewToken.adding("T", to: url) == expected, "\(url)")
            ViewToken.add("T", to: url, in: &text)
            #expect(text.takeText() == expected, "\(url)")
        }
    }
}
