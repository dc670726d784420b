import AASAKit
import Foundation
import OrderedJSON
import TestSupport
import Testing

/// The regression run over AASA files from public repositories (docs/aasa-sample.md lists them and
/// how to rebuild the folder). The files stay out of the tree: the test reads the folder named by
/// `LINKHOST_AASA_SAMPLE` and is skipped, saying so, when it is not set.
///
/// For every file: it parses or gets a precise error code, nothing traps, and `match` on URLs built
/// from the file's own patterns gives the answer of Apple's rules as the independent
/// ``ReferenceAASAEvaluator`` reads them. How long validation and matching take per file is a
/// measurement, not a unit test's business: `bash bench/test-runs` prints it (`RealWorldSampleBench`).
@Suite("Real-world AASA files")
struct RealWorldSampleTests {
    static let folder = ProcessInfo.processInfo.environment["LINKHOST_AASA_SAMPLE"]

    /// The sample files, without the manifest and hidden files.
    static func files(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { !$0.hasPrefix(".") && $0 != "MANIFEST.tsv" }
            .sorted()
    }

    @Test(
        .enabled(
            if: folder != nil,
            "set LINKHOST_AASA_SAMPLE to the folder of sample files described in docs/aasa-sample.md to run the real-world regression"))
    func everyFileParsesOrIsRefusedPreciselyAndMatchesLikeApple() throws {
        _ = try Self.checkEveryFile(in: try #require(Self.folder))
    }

    /// The checks of the regression run on every file of `folder`; returns how long validating and
    /// matching took for each file, by name.
    static func checkEveryFile(in folder: String) throws -> [(name: String, urls: Int, elapsed: Duration)] {
        let names = try Self.files(in: folder)
        var timings: [(name: String, urls: Int, elapsed: Duration)] = []
        #expect(names.count >= 45, "the sample should hold the 45+ files of docs/aasa-sample.md; found \(names.count) in \(folder)")
        var codes: [AASAValidationCode: Int] = [:]
        var compared = 0
        for name in names {
            let bytes = Array(try #require(FileManager.default.contents(atPath: folder + "/" + name), "\(name) cannot be read"))
            let clock = ContinuousClock()
            let started = clock.now
            let report = AASAValidator().validate(bytes: bytes)
            for finding in report.findings { codes[finding.code, default: 0] += 1 }
            guard let document = report.document else {
                let first = try #require(report.findings.first, "\(name): refused without a finding")
                #expect([.notJSON, .rootNotObject].contains(first.code), "\(name): \(first)")
                #expect(!first.message.isEmpty)
                continue
            }
            let matcher = AASAMatcher(document)
            let urls = Self.urls(from: document.root)
            let reference = try? ReferenceAASAEvaluator(document.root)
            for url in urls {
                let result = try matcher.match(url)
                #expect(!result.explanation.isEmpty)
                guard let reference else { continue }
                let expected = reference.answer(url)
                let actual = ReferenceAASAEvaluator.Answer(decision: result.decision, detailsIndex: result.detailsIndex, ruleIndex: result.componentIndex)
                #expect(actual == expected, "\(name): \(url) → \(actual), Apple's rules say \(expected); \(result.explanation)")
                compared += 1
            }
            timings.append((name, urls.count, clock.now - started))
        }
        #expect(compared > names.count * 3)
        let summary = codes.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)×\($0.value)" }.joined(separator: " ")
        print("real-world sample: \(names.count) files, \(compared) URLs compared; findings: \(summary)")
        return timings
    }

    /// URLs built from the file's own patterns (each `*` as nothing, as a letter and as two segments,
    /// each `?` as one letter; query items and fragments from their patterns), with the variants the
    /// recorded slash rules and case decide (the parent of `/x/*`, a doubled leading slash, an extra
    /// trailing slash, upper case), plus a few that no file names.
    static func urls(from root: JSONValue) -> [String] {
        var targets = ["/", "/zz-no-such-path-9", "/a/b?c=d#e", ""]
        func fill(_ pattern: String, star: String) -> String {
            pattern.replacingOccurrences(of: "*", with: star).replacingOccurrences(of: "?", with: "q")
        }
        func paths(_ pattern: String) -> [String] {
            let absolute = pattern.hasPrefix("/") ? pattern : "/" + pattern
            var variants = [fill(absolute, star: ""), fill(absolute, star: "s1/s2"), fill(absolute, star: "x")]
            if absolute.hasSuffix("/*") { variants.append(fill(String(absolute.dropLast(2)), star: "x")) }
            let plain = fill(absolute, star: "x")
            variants += ["/" + plain, plain + "/", plain.uppercased()]
            return Array(Set(variants)).sorted()
        }
        let details = root["applinks"]?["details"]
        let entries = details?.arrayElements ?? details?.objectMembers?.map(\.value) ?? []
        for entry in entries {
            for path in entry["paths"]?.arrayElements ?? [] {
                guard let text = path.stringValue else { continue }
                targets += paths(text.hasPrefix("NOT ") ? String(text.dropFirst(4)) : text)
            }
            for component in entry["components"]?.arrayElements ?? [] {
                let base = component["/"]?.stringValue.map(paths) ?? ["/any"]
                var suffixes = [""]
                if let query = component["?"]?.stringValue {
                    suffixes.append("?" + fill(query, star: "v"))
                } else if let items = component["?"]?.objectMembers {
                    let written = items.map { "\($0.key)=\(fill($0.value.stringValue ?? "", star: "v"))" }.joined(separator: "&")
                    suffixes += ["?" + written, "?other=1"]
                }
                if let fragment = component["#"]?.stringValue { suffixes = suffixes.flatMap { [$0, $0 + "#" + fill(fragment, star: "f")] } }
                for path in base { targets += suffixes.map { path + $0 } }
            }
        }
        return targets.map { "https://example.com" + $0 }
    }
}

/// How long validating and matching each real-world file takes (it once had to stay well under a
/// second per file); printed, slowest first, by `bash bench/test-runs`.
@Suite("Real-world AASA files: timings", .enabled(if: BenchRuns.enabled, Comment(rawValue: BenchRuns.skipped)))
struct RealWorldSampleBench {
    @Test(.enabled(if: RealWorldSampleTests.folder != nil, "set LINKHOST_AASA_SAMPLE to the folder of sample files (docs/aasa-sample.md)"))
    func validatingAndMatchingEachFile() throws {
        let timings = try RealWorldSampleTests.checkEveryFile(in: try #require(RealWorldSampleTests.folder))
        for timing in timings.sorted(by: { $0.elapsed > $1.elapsed }).prefix(10) {
            print("bench: real-world AASA \(timing.name): \(timing.urls) URLs validated and matched in \(timing.elapsed)")
        }
        let total = timings.reduce(Duration.zero) { $0 + $1.elapsed }
        print("bench: real-world AASA: \(timings.count) files in \(total), slowest \(timings.map(\.elapsed).max() ?? .zero)")
    }
}
