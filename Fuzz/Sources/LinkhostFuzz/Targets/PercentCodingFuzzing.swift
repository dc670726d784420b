import PercentCoding

/// Percent decoding and encoding and query splitting (PercentCoding), by round trips: what
/// `encode` writes decodes back to the same bytes, and splitting a query keeps every piece.
enum PercentCodingFuzzing {
    static let target = FuzzTarget(
        name: "percent-coding",
        summary: "PercentCoding.decode/encode round trips, QueryString splitting in all three decodings",
        maximumLength: 2048,
        run: run
    )

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let decoded = PercentCoding.decode(text)
        let formDecoded = PercentCoding.decode(text, plusAsSpace: true)
        if !text.utf8.contains(UInt8(ascii: "%")) {
            FuzzReport.check(
                Array(decoded.text.utf8) == Array(text.utf8) && !decoded.isMalformed, "decode changed text without escapes: \(FuzzReport.shown(text))")
            let spaced = text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
            FuzzReport.check(Array(formDecoded.text.utf8) == spaced, "form decoding of \(FuzzReport.shown(text)) is not + as space")
        }

        // `component`: only unreserved bytes and %HH escapes, and decoding gives the text back exactly.
        let component = PercentCoding.encode(text, .component)
        FuzzReport.check(isEscapedOnly(component, keeping: PercentCoding.isUnreserved), "component encoding left a byte: \(FuzzReport.shown(component))")
        let back = PercentCoding.decode(component)
        FuzzReport.check(
            Array(back.text.utf8) == Array(text.utf8) && !back.isMalformed,
            "component round trip: \(FuzzReport.shown(text)) → \(FuzzReport.shown(component)) → \(FuzzReport.shown(back.text))")

        // `pathAndQuery`: nothing that could leave an attribute, and the same text once decoded.
        let pathAndQuery = PercentCoding.encode(text, .pathAndQuery)
        FuzzReport.check(isEscapedOnly(pathAndQuery, keeping: keptInPathAndQuery), "pathAndQuery encoding left a byte: \(FuzzReport.shown(pathAndQuery))")
        let pathBack = PercentCoding.decode(pathAndQuery)
        FuzzReport.check(
            Array(pathBack.text.utf8) == Array(decoded.text.utf8),
            "pathAndQuery encoding changed what the text decodes to: \(FuzzReport.shown(text)) → \(FuzzReport.shown(pathAndQuery))")
        FuzzReport.check(!pathBack.isMalformed || decoded.isMalformed, "pathAndQuery encoding made \(FuzzReport.shown(text)) malformed")

        checkQuery(text)
    }

    /// Splitting keeps every non-empty `&` piece, in order; names end at the first `=`.
    private static func checkQuery(_ text: String) {
        let pieces = text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { Array($0) }
        let asWritten = Array(QueryString(text, decoding: .asWritten))
        FuzzReport.check(asWritten.count == pieces.count, "query \(FuzzReport.shown(text)) split into \(asWritten.count) items, not \(pieces.count)")
        for (item, piece) in zip(asWritten, pieces) {
            let rebuilt = Array(item.name.utf8) + (item.value.map { [UInt8(ascii: "=")] + Array($0.utf8) } ?? [])
            FuzzReport.check(rebuilt == piece, "query item \(FuzzReport.shown(piece)) read as \(FuzzReport.shown(rebuilt))")
            FuzzReport.check(!item.name.utf8.contains(UInt8(ascii: "=")), "a name holds '=': \(FuzzReport.shown(piece))")
            FuzzReport.check(!item.isMalformed, "an item read as written is malformed: \(FuzzReport.shown(piece))")
        }
        for (decoding, plusAsSpace) in [(QueryString.Decoding.percent, false), (.form, true)] {
            let items = Array(QueryString(text, decoding: decoding))
            FuzzReport.check(items.count == pieces.count, "query \(FuzzReport.shown(text)) split differently when decoded")
            for (item, written) in zip(items, asWritten) {
                let name = PercentCoding.decode(written.name, plusAsSpace: plusAsSpace)
                let value = written.value.map { PercentCoding.decode($0, plusAsSpace: plusAsSpace) }
                FuzzReport.check(
                    item.name == name.text && item.value == value?.text && item.isMalformed == (name.isMalformed || value?.isMalformed == true),
                    "query item \(FuzzReport.shown(written.name)) decoded differently from its parts")
            }
        }
    }

    /// Whether every byte is kept by `keeps` or is part of a `%HH` escape.
    private static func isEscapedOnly(_ text: String, keeping keeps: (UInt8) -> Bool) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else { return false }
                index += 3
            } else {
                guard keeps(bytes[index]) else { return false }
                index += 1
            }
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// What `.pathAndQuery` may leave as it is: never a quote, angle bracket, space, backslash,
    /// control or non-ASCII byte.
    private static func keptInPathAndQuery(_ byte: UInt8) -> Bool {
        PercentCoding.isUnreserved(byte) || Array("!$&()*+,;=:@/?".utf8).contains(byte)
    }
}
