import OrderedJSON
import Testing

/// The project's one JSON writer (`JSONValue.serialized`): the AASA files, `linkhost check --json`,
/// the health report, the hit log's params column and its JSON output all go through it.
@Suite("JSON writing")
struct JSONWriterTests {
    private func literal(_ text: String) -> String { JSONValue.string(text).jsonText(.compact) }

    @Test func quotesAndBackslashesAreEscaped() {
        #expect(literal(#"say "hi""#) == #""say \"hi\"""#)
        #expect(literal(#"C:\dir\"#) == #""C:\\dir\\""#)
        #expect(literal(#"\""#) == #""\\\"""#)
    }

    @Test func everyControlCharacterIsEscaped() {
        #expect(literal("\n\r\t\u{08}\u{0C}") == #""\n\r\t\b\f""#)
        #expect(literal("\u{00}\u{01}\u{1B}\u{1F}") == #""\u0000\u0001\u001b\u001f""#)
        for value in UInt8(0)..<0x20 {
            let text = literal(String(UnicodeScalar(value)))
            #expect(!text.utf8.contains { $0 < 0x20 }, "U+\(value) written raw")
        }
    }

    @Test func slashesDeleteAndNonASCIIAreWrittenAsTheyAre() {
        #expect(literal("/buy/*") == #""/buy/*""#)
        #expect(literal("\u{7F}") == "\"\u{7F}\"")
        #expect(literal("é哈😀e\u{301}") == "\"é哈😀e\u{301}\"")
    }

    // JSON allows U+2028/U+2029 raw and no linkhost output is embedded in a <script>, so they stay.
    @Test func lineAndParagraphSeparatorsAreWrittenAsTheyAre() {
        #expect(literal("a\u{2028}b\u{2029}") == "\"a\u{2028}b\u{2029}\"")
    }

    @Test func everyStringParsesBackToItself() throws {
        let strings = ["", "\u{0}", "\u{1F}\u{7F}", #"\"\/"#, "\u{2028}", "é😀", "tab\there\nnext"]
        for text in strings {
            #expect(try JSONParser().parse(literal(text)) == .string(text))
        }
        let object = JSONValue.object(strings.map { JSONMember($0, .string($0)) }.lastOccurrences)
        #expect(try JSONParser().parse(object.serialized(.pretty(indent: 2))) == object)
    }

    @Test func pathsQuoteKeysThatAreNotIdentifiersAsJSONStrings() {
        #expect(JSONPath.root.appending("applinks").appending("details").appending(0).description == "applinks.details[0]")
        #expect(JSONPath.root.appending("c").appending("?").appending(#"a"b\c"#).description == #"c["?"]["a\"b\\c"]"#)
        #expect(JSONPath.root.appending("line\nbreak").description == #"["line\nbreak"]"#)
    }
}
