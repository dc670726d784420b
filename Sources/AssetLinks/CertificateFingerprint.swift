/// Checks SHA-256 signing-certificate fingerprints as assetlinks.json lists them: 32 bytes as
/// upper-case hex pairs separated by colons, the form `keytool -list -v` and the Play Console print.
/// Used by the config check and the validator, so both judge a fingerprint alike.
public enum CertificateFingerprint {
    /// What a fingerprint is, for messages.
    public static let expectedForm = "32 bytes as upper-case hex pairs separated by colons, AB:CD:…:EF (95 characters)"

    /// A made-up fingerprint in the expected form, for fixes.
    public static let example = "5A:0C:3E:91:D4:7B:22:F8:6E:13:A9:C0:4D:B7:58:E2:91:0F:6C:3A:D8:47:B5:1E:EC:29:70:8D:A3:46:BF:02"

    public enum Verdict: Sendable, Equatable {
        case valid
        /// Right length and hex, but in lower case: `upperCased` is the text as it should be written.
        case lowerCase(upperCased: String)
        case invalid(problem: String, fix: String)
    }

    public static func check(_ text: String) -> Verdict {
        let bytes = Array(text.utf8)
        let isHex: (UInt8) -> Bool = { Character(Unicode.Scalar($0)).isHexDigit }
        let howToFind =
            "keytool -list -v -keystore <your keystore> prints it after \"SHA256:\"; for Play App Signing take the app signing key's SHA-256 from the Play Console's App integrity page"
        if bytes.allSatisfy(isHex) {
            guard bytes.count == 64 else { return .invalid(problem: lengthProblem(text, byteCount: bytes.count / 2), fix: howToFind) }
            let paired = stride(from: 0, to: 64, by: 2).map { String(decoding: bytes[$0..<$0 + 2], as: UTF8.self) }.joined(separator: ":").uppercased()
            return .invalid(problem: "\"\(text)\" has no colons between the bytes", fix: "write \"\(paired)\"")
        }
        let groups = text.split(separator: ":", omittingEmptySubsequences: false)
        guard groups.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy(isHex) }) else {
            return .invalid(problem: "\"\(text)\" is not \(expectedForm)", fix: "copy the SHA-256 fingerprint as printed: \(howToFind)")
        }
        guard groups.count == 32 else { return .invalid(problem: lengthProblem(text, byteCount: groups.count), fix: howToFind) }
        let upper = text.uppercased()
        return upper == text ? .valid : .lowerCase(upperCased: upper)
    }

    private static func lengthProblem(_ text: String, byteCount: Int) -> String {
        switch byteCount {
        case 20: "\"\(text)\" has 20 bytes: that is a SHA-1 fingerprint, and assetlinks.json needs the SHA-256 one (32 bytes)"
        case 16: "\"\(text)\" has 16 bytes: that is an MD5 fingerprint, and assetlinks.json needs the SHA-256 one (32 bytes)"
        default: "\"\(text)\" has \(byteCount) bytes; a SHA-256 fingerprint has 32"
        }
    }
}
