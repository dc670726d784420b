import AssetLinks
import OrderedJSON

/// The assetlinks.json reader and validator (AssetLinks). Raw bytes: checking the bytes and checking
/// the document parsed from them find the same (but for the byte order mark). After the first NUL
/// the input is a package name and fingerprints, one a line: the file generated from them is
/// free of errors exactly when the name and each fingerprint are valid.
enum AssetLinksFuzzing {
    static let target = FuzzTarget(
        name: "assetlinks",
        summary: "AssetLinksValidator on bytes vs on the parsed document; AssetLinksGenerator output vs the validator",
        maximumLength: 2048,
        run: run
    )

    static func run(_ bytes: [UInt8]) {
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let file = Array(parts[0])
        let validator = AssetLinksValidator()
        let findings = validator.validate(bytes: file)
        if let document = try? JSONParser(duplicateKeys: .keepAll, maximumDepth: AssetLinksValidator.maximumNestingDepth, allowsByteOrderMark: true).parse(file)
        {
            let direct = validator.validate(document)
            FuzzReport.check(
                findings.filter { $0.code != .byteOrderMark } == direct,
                "bytes and document checked differently: \(findings.map(\.code)) vs \(direct.map(\.code)) for \(FuzzReport.shown(file))")
        } else {
            FuzzReport.check(findings.contains { $0.code == .notJSON }, "bytes that are not JSON pass as JSON: \(FuzzReport.shown(file))")
        }
        guard parts.count > 1 else { return }
        let lines = String(decoding: parts[1], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let packageName = lines[0]
        let fingerprints = Array(lines.dropFirst())
        let generated = AssetLinksGenerator.document(packageName: packageName, fingerprints: fingerprints)
        let generatedFindings = validator.validate(bytes: generated.serialized())
        let errors = generatedFindings.filter { $0.severity == .error }
        let expectedValid =
            AndroidPackageName.problem(with: packageName) == nil && !fingerprints.isEmpty
            && fingerprints.allSatisfy { if case .invalid = CertificateFingerprint.check($0) { false } else { true } }
        FuzzReport.check(
            errors.isEmpty == expectedValid,
            "generated file for \(FuzzReport.shown(packageName)) and \(fingerprints.map(FuzzReport.shown)) has errors \(errors.map(\.code)), expected \(expectedValid ? "none" : "some")"
        )
        FuzzReport.check(generatedFindings == validator.validate(generated), "the generated file checks differently as bytes")
    }
}
