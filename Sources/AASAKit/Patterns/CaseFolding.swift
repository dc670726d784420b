/// Case folding used when a rule says `"caseSensitive": false`.
///
/// Decision: ASCII folds exactly; other scalars use their simple one-to-one lowercase
/// mapping. Full folding (`ß` → `ss`, `İ` → `i̇`) is left out because it changes a string's length,
/// which would break the promise that `?` matches exactly one character.
enum CaseFolding {
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let value = scalar.value
        if value < 0x80 {
            if value >= 0x41 && value <= 0x5A, let lower = Unicode.Scalar(value + 0x20) { return lower }
            return scalar
        }
        let mapping = scalar.properties.lowercaseMapping.unicodeScalars
        guard mapping.count == 1, let lower = mapping.first else { return scalar }
        return lower
    }

    static func fold(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { result.append(fold(scalar)) }
        return String(result)
    }
}
