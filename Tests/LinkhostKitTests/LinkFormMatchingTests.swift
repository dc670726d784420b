import AASAKit
import LinkLog
import TestSupport
import Testing

/// A link and its `LinkForm` answer alike under every file `isBlindToDigitRuns` accepts, checked on
/// random patterns and values; under files it refuses, some links and forms answer differently.
@Suite("Link forms under AASA matching")
struct LinkFormMatchingTests {
    static let patternAlphabet: [Character] = ["a", "1", "*", "?", "-"]
    static let valueAlphabet: [Character] = ["a", "1", "2", "9", "-", "%"]

    static func matcher(itemPattern: String, pathPattern: String) throws -> AASAMatcher {
        let json = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.a"], "components": [{"/": "\#(pathPattern)", "?": {"id": "\#(itemPattern)"}}]}]}}"#
        return AASAMatcher(try AASADocument(text: json))
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func formsAnswerAsTheirLinksWhereTheFileIsBlindToDigitRuns(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var blind = 0
        var telling = 0
        var toldApart = 0
        var disagreements: [String] = []
        for _ in 0..<400 {
            let item = random.string(from: Self.patternAlphabet, maximumLength: 5)
            let path = "/p" + random.string(from: Self.patternAlphabet, maximumLength: 4)
            let matcher = try Self.matcher(itemPattern: item, pathPattern: path)
            for _ in 0..<20 {
                let value = random.string(from: Self.valueAlphabet, maximumLength: 6)
                let segment = random.string(from: Self.valueAlphabet, maximumLength: 5)
                let linkPath = "/p" + segment
                let query = "id=" + value
                guard let link = try? AASAURL("https://x.example" + linkPath + "?" + query),
                    let form = try? AASAURL("https://x.example" + LinkForm.path(linkPath) + "?" + LinkForm.query(query))
                else { continue }
                let same = matcher.match(link).decision == matcher.match(form).decision
                if matcher.isBlindToDigitRuns {
                    if !same { disagreements.append("\(path) ?id=\(item) on \(linkPath)?\(query)") }
                } else if !same {
                    toldApart += 1
                }
            }
            if matcher.isBlindToDigitRuns { blind += 1 } else { telling += 1 }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        // Both kinds of file were drawn, and the check refuses files that do tell digits apart.
        #expect(blind > 20 && telling > 20 && toldApart > 0)
    }

    @Test func theShippedKindsOfPatternAreBlindAndLoneQuestionMarksOrDigitsAreNot() throws {
        #expect(try Self.matcher(itemPattern: "?*", pathPattern: "/showthread.php").isBlindToDigitRuns)
        #expect(try Self.matcher(itemPattern: "*", pathPattern: "/u/*/posts").isBlindToDigitRuns)
        #expect(try !Self.matcher(itemPattern: "?", pathPattern: "/p").isBlindToDigitRuns)
        #expect(try !Self.matcher(itemPattern: "??*", pathPattern: "/p").isBlindToDigitRuns)
        #expect(try !Self.matcher(itemPattern: "1*", pathPattern: "/p").isBlindToDigitRuns)
        #expect(try !Self.matcher(itemPattern: "*", pathPattern: "/v2/*").isBlindToDigitRuns)
        #expect(try !Self.matcher(itemPattern: "$(digit)*", pathPattern: "/p").isBlindToDigitRuns)
    }
}
