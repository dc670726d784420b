import OrderedJSON

/// OrderedJSON's parser and writer: what parses serializes to JSON that parses again to the same
/// bytes (compact and pretty), the two duplicate-key policies agree, and errors point inside the input.
enum JSONFuzzing {
    static let target = FuzzTarget(
        name: "json",
        summary: "JSONParser (both duplicate-key policies), serialize → parse round trips, error positions",
        run: run
    )

    static func run(_ bytes: [UInt8]) {
        let keepAll = JSONParser(duplicateKeys: .keepAll, maximumDepth: 64)
        let rejecting = JSONParser(duplicateKeys: .reject, maximumDepth: 64)
        let kept: JSONValue
        do {
            kept = try keepAll.parse(bytes)
        } catch {
            FuzzReport.check(
                error.offset >= 0 && error.offset <= bytes.count && error.line >= 1 && error.column >= 1,
                "error outside the input: \(error) for \(FuzzReport.shown(bytes))")
            FuzzReport.check((try? rejecting.parse(bytes)) == nil, "the rejecting parser read what the lenient one refused: \(FuzzReport.shown(bytes))")
            return
        }
        let repeated = kept.repeatedKeyPaths()
        switch Result(catching: { () throws(JSONSyntaxError) in try rejecting.parse(bytes) }) {
        case .success(let strict):
            FuzzReport.check(repeated.isEmpty, "the rejecting parser took repeated keys at \(repeated) in \(FuzzReport.shown(bytes))")
            FuzzReport.check(strict.serialized(.compact) == kept.serialized(.compact), "the two policies read \(FuzzReport.shown(bytes)) differently")
        case .failure(let error):
            FuzzReport.check(!repeated.isEmpty, "the rejecting parser refused \(FuzzReport.shown(bytes)) without a repeated key: \(error)")
        }

        let compact = kept.serialized(.compact)
        let pretty = kept.serialized(.pretty(indent: 2))
        for (layout, text) in [("compact", compact), ("pretty", pretty)] {
            let again: JSONValue
            do {
                again = try keepAll.parse(text)
            } catch {
                FuzzReport.fail("the \(layout) serialization of \(FuzzReport.shown(bytes)) does not parse: \(error); it is \(FuzzReport.shown(text))")
            }
            FuzzReport.check(
                again.serialized(.compact) == compact,
                "\(layout) round trip changed \(FuzzReport.shown(compact)) into \(FuzzReport.shown(again.serialized(.compact)))")
            FuzzReport.check(again.isEquivalent(to: kept), "\(layout) round trip is not equivalent for \(FuzzReport.shown(bytes))")
        }
        FuzzReport.check(!compact.contains { $0 < 0x20 }, "compact output holds a raw control byte: \(FuzzReport.shown(compact))")
    }
}
