/// Compares key spellings the way people get them wrong: case, `_` and `-` and a plural `s` do not
/// count, so `sha256CertFingerprints` (the linkhost config's key) and `sha256_cert_fingerprint`
/// are both recognised as `sha256_cert_fingerprints`.
enum KeySpelling {
    static func fold(_ key: String) -> String {
        var folded = String(key.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
        if folded.hasSuffix("s") { folded.removeLast() }
        return folded
    }
}
