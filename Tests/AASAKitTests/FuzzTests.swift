import AASAKit
import OrderedJSON
import TestSupport
import Testing

/// Arbitrary and mutated bytes must parse, validate and match without trapping.
@Suite("Fuzzing")
struct FuzzTests {
    static let seeds = [
        Fixtures.awful, Fixtures.rowhni, Fixtures.legacyRecipes, Fixtures.appleOverview,
        ##"{"applinks": {"substitutionVariables": {"f": ["a*", "b?"], "bad(": []}, "defaults": {"caseSensitive": false}, "details": [{"appID": "X.y", "appIDs": ["ABCDE12345.a.b"], "components": [{"/": "/$(f)/$(lang)_$(region)", "?": {"k": "$(digit)"}, "#": "$(unterminated"}], "paths": ["NOT /a", "*"]}]}}"##,
    ]
    static let urls = ["https://example.com/a/b?c=1&c=2#f", "https://example.com", "/x%2Fy?%zz=%", "https://[::1]:8080/p?q#"]

    static func exercise(_ bytes: [UInt8]) {
        let report = AASAValidator().validate(bytes: bytes)
        if let document = report.document {
            let matcher = AASAMatcher(document)
            for url in urls {
                let result = try? matcher.match(url, options: AASAMatchOptions(domain: "example.com"))
                _ = result?.swcutilVerifyLines()
            }
        }
    }

    @Test(arguments: [101 as UInt64, 102])
    func mutatedValidFilesNeverTrap(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let specials: [UInt8] = Array("{}[]\":,*?$()/#\\ NOT".utf8) + [0x00, 0xFF, 0xC3, 0xEF]
        var parsed = 0
        for round in 0..<6_000 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[position] = specials.randomElement(using: &random) ?? 0
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(specials.randomElement(using: &random) ?? 0, at: position)
                default:
                    let end = min(bytes.count, position + Int.random(in: 1...20, using: &random))
                    bytes.insert(contentsOf: bytes[position..<end], at: position)
                }
            }
            if (try? AASADocument(bytes: bytes)) != nil { parsed += 1 }
            Self.exercise(bytes)
        }
        // Some mutations must keep the JSON valid, or only the error path was exercised.
        #expect(parsed > 100)
    }

    @Test func randomBytesNeverTrap() {
        var random = SeededGenerator(seed: 7)
        var rejected = 0
        for _ in 0..<12_000 {
            let length = Int.random(in: 0...64, using: &random)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let report = AASAValidator().validate(bytes: bytes)
            if report.document == nil { rejected += 1 }
            #expect(report.document != nil || report.hasErrors)
        }
        #expect(rejected > 11_000)
    }

    @Test func randomURLsNeverTrap() throws {
        var random = SeededGenerator(seed: 8)
        let matcher = try Fixtures.matcher(Self.seeds[4])
        let alphabet: [Character] = ["h", "t", "p", "s", ":", "/", "?", "#", "&", "=", "%", "2", "F", "[", "]", "@", ".", "é", " "]
        var parsed = 0
        for _ in 0..<8_000 {
            let text = random.string(from: alphabet, maximumLength: 24)
            if let result = try? matcher.match(text) {
                parsed += 1
                #expect(!result.explanation.isEmpty)
            }
        }
        #expect(parsed > 100)
    }

    @Test func deeplyNestedInputIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        let report = AASAValidator().validate(bytes: Array(deep.utf8))
        #expect(report.document == nil)
        #expect(report.findings.map(\.code) == [.notJSON])
        let deepObject = "{\"applinks\":" + String(repeating: "{\"a\":", count: 120) + "1" + String(repeating: "}", count: 121)
        #expect(AASAValidator().validate(bytes: Array(deepObject.utf8)).document != nil)
    }

    @Test func hugeVariableExpansionIsBounded() throws {
        let values = (0..<3_000).map { "\"value\($0)-with-some-length\"" }.joined(separator: ",")
        let json =
            #"{"applinks": {"substitutionVariables": {"v": [\#(values)]}, "details": [{"appIDs": ["ABCDE12345.a.b"], "components": [{"/": "/$(v)/$(v)/$(v)"}, {"/": "/ok"}]}]}}"#
        let report = AASAValidator().validate(bytes: Array(json.utf8))
        #expect(report.findings(.patternTooComplex).count == 1)
        let matcher = AASAMatcher(try #require(report.document))
        #expect(try matcher.match("https://example.com/ok").componentIndex == 1)
        #expect(try matcher.decision("https://example.com/value1-with-some-length/value2-with-some-length/value3-with-some-length") == .none)
    }

    @Test func manyRulesValidateInBoundedTime() {
        let components = (0..<3_000).map { #"{"/": "/p\#($0)/*"}"# }.joined(separator: ",")
        let json = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.a.b"], "components": [{"/": "*"},\#(components)]}]}}"#
        let report = AASAValidator().validate(bytes: Array(json.utf8))
        #expect(report.findings(.fileTooLarge).isEmpty)
        // Every rule after the catch-all is named once, by one finding on the catch-all.
        #expect(report.findings(.shadowedRule).count == 1)
        #expect(report.findings(.shadowedRule).first?.message.contains("the 3000 rules after it") == true)
        #expect(report.findings(.wholeSiteCatchAll).count == 1)
    }
}
