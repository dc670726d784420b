/// Checks `<Application Identifier Prefix>.<Bundle Identifier>` strings such as
/// `ABCDE12345.com.example.app`.
///
/// Apple's prefixes are ten upper-case letters or digits; the seed documents write the placeholder
/// `TEAMID`, so any run of upper-case letters and digits is accepted here and `linkhost check`
/// warns about anything that is not ten characters.
enum AppIdentifier {
    static func problem(with identifier: String) -> String? {
        guard let dot = identifier.firstIndex(of: ".") else {
            return "\"\(identifier)\" has no team prefix"
        }
        let prefix = identifier[..<dot]
        let bundle = identifier[identifier.index(after: dot)...]
        guard !prefix.isEmpty, prefix.utf8.allSatisfy({ ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }) else {
            return "\"\(identifier)\" has a team prefix \"\(prefix)\" that is not upper-case letters and digits"
        }
        let bundleParts = bundle.split(separator: ".", omittingEmptySubsequences: false)
        guard !bundle.isEmpty, bundleParts.allSatisfy({ part in
            !part.isEmpty && part.utf8.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        }) else {
            return "\"\(identifier)\" has a bundle identifier \"\(bundle)\" that is not reverse-DNS (letters, digits, '-', dots)"
        }
        return nil
    }
}
