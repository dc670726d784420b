import AASAKit

/// IDNA host names and Punycode (AASAKit): Punycode decodes what it encodes, and a host's ASCII
/// form is ASCII, has no label over 63 characters and is its own ASCII form.
enum IDNAFuzzing {
    static let target = FuzzTarget(
        name: "idna",
        summary: "Punycode encode → decode round trip, decode → encode → decode, IDNA.asciiHost idempotence",
        maximumLength: 2048,
        run: run
    )

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let scalars = Array(text.unicodeScalars)
        if let encoded = Punycode.encode(scalars) {
            FuzzReport.check(encoded.unicodeScalars.allSatisfy(\.isASCII), "Punycode wrote non-ASCII for \(FuzzReport.shown(text))")
            let decoded = Punycode.decode(encoded)
            FuzzReport.check(
                decoded == scalars,
                "Punycode round trip: \(FuzzReport.shown(text)) → \(FuzzReport.shown(encoded)) → \(decoded.map { FuzzReport.shown(String(String.UnicodeScalarView($0))) } ?? "nil")"
            )
        }
        if let decoded = Punycode.decode(text) {
            guard let encoded = Punycode.encode(decoded) else { FuzzReport.fail("Punycode cannot encode what it decoded from \(FuzzReport.shown(text))") }
            FuzzReport.check(Punycode.decode(encoded) == decoded, "Punycode decode → encode → decode differs for \(FuzzReport.shown(text))")
        }
        guard let ascii = try? IDNA.asciiHost(text) else { return }
        FuzzReport.check(ascii.unicodeScalars.allSatisfy(\.isASCII), "asciiHost(\(FuzzReport.shown(text))) is not ASCII: \(FuzzReport.shown(ascii))")
        if !ascii.contains(":") {
            let labels = ascii.split(separator: ".", omittingEmptySubsequences: false)
            FuzzReport.check(
                labels.allSatisfy { $0.utf8.count <= 63 }, "asciiHost(\(FuzzReport.shown(text))) has a label over 63 characters: \(FuzzReport.shown(ascii))")
        }
        do {
            let again = try IDNA.asciiHost(ascii)
            FuzzReport.check(again == ascii, "asciiHost is not idempotent: \(FuzzReport.shown(text)) → \(FuzzReport.shown(ascii)) → \(FuzzReport.shown(again))")
        } catch {
            FuzzReport.fail("asciiHost refuses its own output \(FuzzReport.shown(ascii)) (from \(FuzzReport.shown(text))): \(error)")
        }
    }
}
