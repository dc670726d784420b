import OrderedJSON
import TestSupport
import Testing

@Suite("JSON parsing")
struct JSONParserTests {
    @Test func keepsMemberOrderAndRoundTripsNumbersExactly() throws {
        let value = try JSONParser().parse(#"{"z": 1, "a": [true, false, null], "m": {"x": -0.5e10, "y": 12345678901234567890}}"#)
        #expect(value.objectMembers?.map(\.key) == ["z", "a", "m"])
        #expect(value["m"]?["x"]?.numberValue?.literal == "-0.5e10")
        #expect(value["m"]?["y"]?.numberValue?.literal == "12345678901234567890")
        #expect(value["z"]?.numberValue?.intValue == 1)
        #expect(value.jsonText(.compact) == #"{"z":1,"a":[true,false,null],"m":{"x":-0.5e10,"y":12345678901234567890}}"#)
    }

    @Test func decodesEscapesAndUnicode() throws {
        let value = try JSONParser().parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00 哈""#)
        #expect(value.stringValue == "a\"b\\c/d\né😀 哈")
    }

    @Test func serializesWithoutEscapingSlashesOrUnicode() {
        let value: JSONValue = .object([JSONMember("/", "/buy/*"), JSONMember("text", "哈\"\n\u{01}")])
        #expect(value.jsonText(.compact) == #"{"/":"/buy/*","text":"哈\"\n\u0001"}"#)
        #expect(value.jsonText(.pretty(indent: 2)) == "{\n  \"/\": \"/buy/*\",\n  \"text\": \"哈\\\"\\n\\u0001\"\n}")
    }

    @Test func prettyOutputParsesBackToTheSameValue() throws {
        let text = #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/x","?":{"k":"?*"}}]}],"empty":{},"none":[]}}"#
        let value = try JSONParser().parse(text)
        #expect(try JSONParser().parse(value.serialized(.pretty(indent: 4))) == value)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}'"),
        ("[1, 2", 1, 6, "expected ',' or ']'"),
        ("{\n  \"a\": tru\n}", 2, 8, "did you mean true"),
        ("{'a': 1}", 1, 2, "double quotes"),
        ("// c\n{}", 1, 1, "comments"),
        ("", 1, 1, "empty"),
        ("01", 1, 2, "leading zeros"),
        ("\"abc", 1, 1, "never closed"),
        ("\"\\x\"", 1, 2, "not a JSON escape"),
        ("{} x", 1, 4, "after the end"),
        ("\"\\ud800\"", 1, 8, "surrogate"),
    ])
    func reportsSyntaxErrorsWithLineAndColumn(text: String, line: Int, column: Int, fragment: String) {
        do {
            _ = try JSONParser().parse(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.column == column)
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }

    @Test func namesThePathOfTheBrokenValue() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(#"{"sites": [{"id": "x"}, {"hosts": [1, }]}"#) }
        do {
            _ = try JSONParser().parse(#"{"sites": [{"id": "x"}, {"hosts": [1, ]}]}"#)
        } catch {
            #expect(error.path.description == "sites[1].hosts[1]")
        }
    }

    @Test func duplicateKeysAreRejectedOrKeptOnRequest() throws {
        do {
            _ = try JSONParser().parse(#"{"a": {"b": 1, "b": 2}}"#)
            Issue.record("duplicate accepted")
        } catch {
            #expect(error.message.contains("\"b\" appears twice"))
            #expect(error.path.description == "a.b")
        }
        let lenient = try JSONParser(duplicateKeys: .keepAll).parse(#"{"b": 1, "b": 2}"#)
        #expect(lenient.objectMembers?.count == 2)
        // Kept duplicates read the way Apple's parser reads an AASA file: the last one wins.
        #expect(lenient["b"] == 2)
    }

    @Test func keptDuplicatesReadAsTheirLastOccurrence() throws {
        let value = try JSONParser(duplicateKeys: .keepAll).parse(#"{"a": 1, "b": 2, "a": 3, "c": 4, "b": 5}"#)
        let members = try #require(value.objectMembers)
        #expect(members.lastOccurrences == [JSONMember("a", 3), JSONMember("c", 4), JSONMember("b", 5)])
        #expect(value["a"] == 3 && value["b"] == 5 && value["c"] == 4)
        #expect(value["missing"] == nil)
        let unique = [JSONMember("x", 1), JSONMember("y", 2)]
        #expect(unique.lastOccurrences == unique)
    }

    @Test func byteOrderMarkIsRefusedUnlessAllowed() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(bytes) }
        #expect(try JSONParser(allowsByteOrderMark: true).parse(bytes) == .object([]))
    }

    @Test func rejectsInvalidUTF8AndControlCharacters() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse("\"a\tb\"") }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONParser().parse(deep)
            Issue.record("accepted 100000 levels")
        } catch {
            #expect(error.message.contains("nesting deeper than 256"))
        }
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SeededGenerator(seed: 0x5EED)
        let alphabet = Array("{}[]\",:0123456789-+.eEtrufalsn \\u/\n".utf8) + [0xC3, 0xA9, 0xFF, 0x00]
        var parsed = 0
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            if (try? JSONParser().parse(bytes)) != nil { parsed += 1 }
        }
        // Some random inputs are valid JSON (numbers, literals); most are not. Both paths ran.
        #expect(parsed > 0)
        #expect(parsed < 20_000)
    }
}
